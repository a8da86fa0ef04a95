// SPDX-License-Identifier: Apache-2.0
/**
 * The languages the texts for receivers are written in ({@link org.proofmode.i18n.Language}: English, Spanish,
 * French, Arabic, Ukrainian, simplified Chinese) and their sentences ({@link org.proofmode.i18n.Texts}), one
 * UTF-8 {@code .properties} file a language under {@code org/proofmode/i18n/}. Adding a language is adding one
 * file and one constant; a test holds every file to the English keys and placeholders. Each file's header
 * lists the keys a native speaker has reviewed ({@code # reviewed:}); the others are still to check.
 */
package org.proofmode.i18n;
