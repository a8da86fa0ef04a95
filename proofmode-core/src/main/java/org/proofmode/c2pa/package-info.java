// SPDX-License-Identifier: Apache-2.0
/**
 * Content credentials (C2PA): JUMBF boxes, CBOR, COSE_Sign1, the manifest store embedded in media,
 * its validation with the specification's status codes, the local certificate authority in {@code
 * <home>/c2pa/} and the signer a home signs with ({@link SignerSetup}), and the writer that embeds a signed manifest in a copy of a photo. Parsers here read
 * bytes a stranger sent: every length is checked and every read bounded.
 */
package org.proofmode.c2pa;
