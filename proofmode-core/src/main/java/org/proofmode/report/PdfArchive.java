// SPDX-License-Identifier: Apache-2.0
package org.proofmode.report;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Calendar;
import java.util.GregorianCalendar;
import java.util.Locale;
import java.util.Optional;
import java.util.TimeZone;
import javax.xml.transform.TransformerException;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDDocumentInformation;
import org.apache.pdfbox.pdmodel.common.PDMetadata;
import org.apache.pdfbox.pdmodel.graphics.color.PDOutputIntent;
import org.apache.xmpbox.XMPMetadata;
import org.apache.xmpbox.schema.AdobePDFSchema;
import org.apache.xmpbox.schema.DublinCoreSchema;
import org.apache.xmpbox.schema.PDFAIdentificationSchema;
import org.apache.xmpbox.schema.XMPBasicSchema;
import org.apache.xmpbox.type.BadFieldValueException;
import org.apache.xmpbox.xml.XmpSerializer;
import org.proofmode.imaging.Picture;

/**
 * What makes the PDF an archival PDF/A-2b document: the document information and the same facts as XMP
 * metadata (written by PDFBox's xmpbox), the PDF/A identification, and sRGB as the output intent. Dates are
 * the report's own date, never the time of writing.
 */
final class PdfArchive {
    static final String PRODUCER = "ProofMode (Apache PDFBox)";
    private static final String SRGB = "sRGB IEC61966-2.1";

    private PdfArchive() {}

    static void describe(PDDocument pdf, ReportDocument doc) throws IOException {
        Optional<Calendar> date = doc.date().flatMap(PdfArchive::calendar);
        PDDocumentInformation info = new PDDocumentInformation();
        info.setTitle(doc.title());
        info.setProducer(PRODUCER);
        info.setCreator(PRODUCER);
        date.ifPresent(d -> {
            info.setCreationDate(d);
            info.setModificationDate(d);
        });
        pdf.setDocumentInformation(info);

        XMPMetadata xmp = XMPMetadata.createXMPMetadata();
        DublinCoreSchema dc = xmp.createAndAddDublinCoreSchema();
        dc.setTitle(doc.title());
        dc.setFormat("application/pdf");
        AdobePDFSchema adobe = xmp.createAndAddAdobePDFSchema();
        adobe.setProducer(PRODUCER);
        XMPBasicSchema basic = xmp.createAndAddXMPBasicSchema();
        basic.setCreatorTool(PRODUCER);
        date.ifPresent(d -> {
            basic.setCreateDate(d);
            basic.setModifyDate(d);
        });
        PDFAIdentificationSchema id = xmp.createAndAddPDFAIdentificationSchema();
        try {
            id.setPart(2);
            id.setConformance("B");
        } catch (BadFieldValueException e) {
            throw new IllegalStateException(e);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            new XmpSerializer().serialize(xmp, bytes, true);
        } catch (TransformerException e) {
            throw new IOException("cannot write the XMP metadata: " + e.getMessage(), e);
        }
        PDMetadata metadata = new PDMetadata(pdf);
        metadata.importXMPMetadata(bytes.toByteArray());
        pdf.getDocumentCatalog().setMetadata(metadata);

        PDOutputIntent intent = new PDOutputIntent(pdf, new ByteArrayInputStream(Picture.srgbProfile()));
        intent.setInfo(SRGB);
        intent.setOutputCondition(SRGB);
        intent.setOutputConditionIdentifier(SRGB);
        intent.setRegistryName("http://www.color.org");
        pdf.getDocumentCatalog().addOutputIntent(intent);
    }

    private static Optional<Calendar> calendar(String iso) {
        try {
            Calendar c = new GregorianCalendar(TimeZone.getTimeZone(ZoneOffset.UTC), Locale.ROOT);
            c.setTimeInMillis(Instant.parse(iso).toEpochMilli());
            return Optional.of(c);
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
