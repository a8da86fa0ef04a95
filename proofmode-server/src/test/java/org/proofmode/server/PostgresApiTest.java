// SPDX-License-Identifier: Apache-2.0
package org.proofmode.server;

import java.nio.file.Path;
import java.util.Optional;

/** The API on PostgreSQL: a fresh schema in the database CI starts (see {@link PostgresFixture}). */
class PostgresApiTest extends ApiContract {
    @Override
    Optional<String> jdbcUrl() throws Exception {
        return Optional.of(PostgresFixture.freshSchemaUrl());
    }

    @Override
    public String freshJdbcUrl(Path dir) throws Exception {
        return PostgresFixture.freshSchemaUrl();
    }
}
