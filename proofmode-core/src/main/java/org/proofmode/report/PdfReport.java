// SPDX-License-Identifier: Apache-2.0
package org.proofmode.report;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.pdfbox.cos.COSArray;
import org.apache.pdfbox.cos.COSBase;
import org.apache.pdfbox.cos.COSDictionary;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.cos.COSString;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.common.PDNumberTreeNode;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.documentinterchange.logicalstructure.PDMarkInfo;
import org.apache.pdfbox.pdmodel.documentinterchange.logicalstructure.PDStructureElement;
import org.apache.pdfbox.pdmodel.documentinterchange.logicalstructure.PDStructureTreeRoot;
import org.apache.pdfbox.pdmodel.documentinterchange.markedcontent.PDMarkedContent;
import org.apache.pdfbox.pdmodel.documentinterchange.markedcontent.PDPropertyList;
import org.apache.pdfbox.pdmodel.documentinterchange.taggedpdf.PDTableAttributeObject;
import org.apache.pdfbox.pdmodel.graphics.image.JPEGFactory;
import org.apache.pdfbox.pdmodel.graphics.image.PDImageXObject;
import org.apache.pdfbox.pdmodel.interactive.viewerpreferences.PDViewerPreferences;
import org.proofmode.i18n.Texts;

/**
 * Renders a report as a PDF/A-2b document with Apache PDFBox: A4 pages, Liberation Sans embedded (the
 * TrueType font PDFBox ships, SIL Open Font License) and, for the characters it lacks, the system's Noto,
 * Droid Sans Fallback and Symbola fonts ({@link PdfFonts}), each as a subset; real text that can be searched and copied, tagged
 * (headings, paragraphs, figures with alternative text, code, tables of rows with header and data cells)
 * in reading order, and the same bytes for the
 * same report: the document ID is the report's id and no time is written but the report's own date.
 *
 * <p>Security: strings go through {@link PdfText}, which escapes control and bidirectional characters and
 * writes characters no font has as {@code [U+XXXX]}: no text makes the report fail.
 */
public final class PdfReport {
    private PdfReport() {}

    /** The PDF's bytes. */
    public static byte[] render(ReportDocument doc) {
        return render(doc, PdfFonts.SYSTEM);
    }

    /** The PDF's bytes, with these system fonts tried after Liberation Sans (none: only the fallback). */
    static byte[] render(ReportDocument doc, List<Path> systemFonts) {
        try (PDDocument pdf = new PDDocument(); PdfFonts fonts = new PdfFonts(pdf, systemFonts)) {
            Texts x = Texts.of(doc.language());
            PdfLayout layout = new PdfLayout(new PdfText(fonts, doc.language().rightToLeft()), x);
            layout.addAll(doc.blocks());
            List<List<PdfLayout.Op>> pages = layout.pages();
            PDStructureTreeRoot root = new PDStructureTreeRoot();
            pdf.getDocumentCatalog().setStructureTreeRoot(root);
            PDStructureElement document = new PDStructureElement("Document", root);
            root.appendKid(document);
            Map<Integer, COSBase> parents = new HashMap<>();
            Map<Block.Picture, PDImageXObject> images = new HashMap<>();
            Map<PdfLayout.Group, PDStructureElement> groups = new IdentityHashMap<>();
            for (int i = 0; i < pages.size(); i++) {
                PDPage page = new PDPage(PDRectangle.A4);
                pdf.addPage(page);
                page.getCOSObject().setItem(COSName.getPDFName("Tabs"), COSName.S);
                page.setStructParents(i);
                COSArray marked = new COSArray();
                try (PDPageContentStream cs = new PDPageContentStream(pdf, page)) {
                    PdfLayout.Canvas canvas = new PdfLayout.Canvas(pdf, cs, images);
                    for (PdfLayout.Op op : pages.get(i)) {
                        int mcid = marked.size();
                        COSDictionary props = new COSDictionary();
                        props.setInt(COSName.MCID, mcid);
                        cs.beginMarkedContent(COSName.getPDFName(op.tag()), PDPropertyList.create(props));
                        op.draw().draw(canvas);
                        cs.endMarkedContent();
                        PDStructureElement parent = op.group().map(g -> element(g, document, groups)).orElse(document);
                        PDStructureElement e = new PDStructureElement(op.tag(), parent);
                        e.setPage(page);
                        op.alt().ifPresent(e::setAlternateDescription);
                        op.scope().ifPresent(scope -> {
                            PDTableAttributeObject a = new PDTableAttributeObject();
                            a.setScope(scope);
                            e.addAttribute(a);
                        });
                        e.appendKid(new PDMarkedContent(COSName.getPDFName(op.tag()), props));
                        parent.appendKid(e);
                        marked.add(e);
                    }
                    cs.beginMarkedContent(COSName.ARTIFACT);
                    layout.footer(canvas, x.get("report.footer", doc.id().substring(0, 16), Integer.toString(i + 1), Integer.toString(pages.size())));
                    cs.endMarkedContent();
                }
                parents.put(i, marked);
            }
            PDNumberTreeNode parentTree = new PDNumberTreeNode(COSBase.class);
            parentTree.setNumbers(parents);
            root.setParentTree(parentTree);
            root.setParentTreeNextKey(pages.size());
            PDMarkInfo mark = new PDMarkInfo();
            mark.setMarked(true);
            pdf.getDocumentCatalog().setMarkInfo(mark);
            pdf.getDocumentCatalog().setLanguage(doc.language().tag());
            PDViewerPreferences prefs = new PDViewerPreferences(new COSDictionary());
            prefs.setDisplayDocTitle(true);
            pdf.getDocumentCatalog().setViewerPreferences(prefs);
            PdfArchive.describe(pdf, doc);
            COSArray id = new COSArray();
            byte[] idBytes = HexFormat.of().parseHex(doc.id().substring(0, 32));
            id.add(new COSString(idBytes));
            id.add(new COSString(idBytes));
            pdf.getDocument().getTrailer().setItem(COSName.ID, id);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            pdf.save(out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the PDF report: " + e.getMessage(), e);
        }
    }

    /** The element of a group (a table or a row), made and put under its own parent when first used. */
    private static PDStructureElement element(PdfLayout.Group g, PDStructureElement document, Map<PdfLayout.Group, PDStructureElement> groups) {
        PDStructureElement e = groups.get(g);
        if (e == null) {
            PDStructureElement parent = g.parent().map(p -> element(p, document, groups)).orElse(document);
            e = new PDStructureElement(g.tag(), parent);
            parent.appendKid(e);
            groups.put(g, e);
        }
        return e;
    }

    /** A JPEG as an image of the document, made once per picture. */
    static PDImageXObject image(PDDocument pdf, Block.Picture p, Map<Block.Picture, PDImageXObject> cache) throws IOException {
        PDImageXObject x = cache.get(p);
        if (x == null) {
            x = JPEGFactory.createFromByteArray(pdf, p.jpeg());
            cache.put(p, x);
        }
        return x;
    }
}
