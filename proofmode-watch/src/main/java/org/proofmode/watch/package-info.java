// SPDX-License-Identifier: Apache-2.0
/**
 * Background capture: a watcher that proves every new or changed media file in a set of folders, with
 * its durable state (what was seen, what was proved, what failed) in an embedded SQLite database in the
 * ProofMode home. Events are reported to a {@link WatchListener}; rendering them is
 * the front end's job. {@link HomeEncryption} makes a home's proof store encrypted together with the
 * watcher's database, refusing while a watcher runs.
 */
package org.proofmode.watch;
