// SPDX-License-Identifier: Apache-2.0
/**
 * Verification reports for people who do not use a terminal (an editor, a lawyer, a court): the content
 * made from {@code verify}'s reports ({@link org.proofmode.report.ReportBuilder}: the verdict in plain words,
 * the media's thumbnail, hashes, signer, context, the place on a map drawn from the bundled Natural Earth
 * outline, every check with its meaning, the commands that redo the checks with common tools, a
 * certification page), rendered as a reproducible, tagged PDF/A-2b ({@link org.proofmode.report.PdfReport},
 * Apache PDFBox) or one self-contained HTML page ({@link org.proofmode.report.HtmlReport}). It checks
 * nothing itself: it reads the verifier's results. {@link org.proofmode.report.Reporting} is the use case of
 * {@code proofmode report}: each bundle verified, the document written and signed.
 */
package org.proofmode.report;
