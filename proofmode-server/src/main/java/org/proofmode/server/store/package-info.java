// SPDX-License-Identifier: Apache-2.0
/**
 * The server's storage: the database (SQLite or PostgreSQL through one JDBC pool, schema migrated by
 * Flyway), content-addressed blobs on disk or in an S3-compatible bucket, stored bundles with their chain
 * of custody, tokens, rate limits, notarizations and kept reports.
 */
package org.proofmode.server.store;
