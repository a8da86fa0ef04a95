// SPDX-License-Identifier: Apache-2.0
/**
 * What the HTTP handlers and the server's wiring share, below both: the verification pool with its time
 * limit ({@link Verification}), the Prometheus metrics ({@link Metrics}), the operator's event log
 * ({@link EventLog}), the bounds of resumable uploads ({@link UploadBounds}), and the API's failures
 * ({@link ApiException} of a {@link ProblemType}), which {@code http.Problems} turns into problem+json.
 */
package org.proofmode.server.service;
