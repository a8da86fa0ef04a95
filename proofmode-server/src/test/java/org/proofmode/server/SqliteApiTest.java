package org.proofmode.server;

import java.util.Optional;

/** The API on embedded SQLite (the default database). */
class SqliteApiTest extends ApiContract {
    @Override
    Optional<String> jdbcUrl() {
        return Optional.empty();
    }
}
