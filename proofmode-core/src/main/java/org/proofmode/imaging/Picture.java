// SPDX-License-Identifier: Apache-2.0
package org.proofmode.imaging;

import com.drew.imaging.ImageMetadataReader;
import com.drew.imaging.ImageProcessingException;
import com.drew.metadata.Metadata;
import com.drew.metadata.MetadataException;
import com.drew.metadata.exif.ExifIFD0Directory;
import java.awt.Graphics2D;
import java.awt.color.ColorSpace;
import java.awt.color.ICC_Profile;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.awt.image.ComponentSampleModel;
import java.awt.image.DataBufferByte;
import java.awt.image.DataBufferInt;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Iterator;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.ImageTypeSpecifier;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.metadata.IIOMetadata;
import javax.imageio.stream.ImageInputStream;
import javax.imageio.stream.MemoryCacheImageOutputStream;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * A decoded photo that can be redacted and encoded again, with no AWT type in its API (so that another
 * platform can replace this package). Pixels are 8-bit sRGB, with alpha when the source has it, and the
 * EXIF orientation is applied on decoding: coordinates are those of the image as viewers display it.
 *
 * <p>JPEG copies are encoded at quality {@link #JPEG_QUALITY} without chroma subsampling (4:4:4).
 * Encoding writes no metadata at all: no EXIF, no thumbnail, no XMP, no IPTC, no comment, no ICC
 * profile. A JPEG gets only the JFIF header that the encoder always writes.
 *
 * <p>Security: images above {@link ImageHashes#MAX_PIXELS} are refused before they are decoded.
 */
public final class Picture {
    /** The JPEG quality of redacted copies: high, so that pixels outside the regions barely move. */
    public static final float JPEG_QUALITY = 0.95f;

    private final int width;
    private final int height;
    private final boolean alpha;
    private final int orientation;
    /** Row-major ARGB (or RGB with an ignored top byte), the backing array of {@link #image}. */
    final int[] pixels;
    final BufferedImage image;

    private Picture(BufferedImage image, boolean alpha, int orientation) {
        this.image = image;
        this.width = image.getWidth();
        this.height = image.getHeight();
        this.alpha = alpha;
        this.orientation = orientation;
        this.pixels = ((DataBufferInt) image.getRaster().getDataBuffer()).getData();
    }

    /** Why an image cannot be decoded here. */
    public static final class Undecodable extends Exception {
        private static final long serialVersionUID = 1L;

        Undecodable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Decodes an image file's bytes and applies its EXIF orientation.
     *
     * @throws Undecodable if no decoder reads it (a CMYK JPEG, a damaged file), or it is too large
     */
    public static Picture decode(byte[] bytes) throws Undecodable {
        try (ImageInputStream in = ImageIO.createImageInputStream(new ByteArrayInputStream(bytes))) {
            Iterator<ImageReader> readers = ImageIO.getImageReaders(in);
            if (!readers.hasNext()) {
                throw new Undecodable("no decoder for this image format", null);
            }
            ImageReader reader = readers.next();
            try {
                reader.setInput(in, true, true);
                long n = (long) reader.getWidth(0) * reader.getHeight(0);
                if (n > ImageHashes.MAX_PIXELS) {
                    throw new Undecodable(reader.getWidth(0) + "x" + reader.getHeight(0) + " is more than "
                            + ImageHashes.MAX_PIXELS + " pixels", null);
                }
                BufferedImage raw = reader.read(0);
                int o = orientation(bytes);
                return new Picture(Orientations.apply(normalise(raw), o), raw.getColorModel().hasAlpha(), o);
            } finally {
                reader.dispose();
            }
        } catch (IOException | RuntimeException e) {
            // ImageIO's decoders throw unchecked exceptions on some damaged or exotic files (CMYK JPEG).
            throw new Undecodable("cannot decode: " + (e.getMessage() == null ? e.toString() : e.getMessage()), e);
        }
    }

    /** The EXIF orientation (1 to 8) of an image file; 1 when it has none or it cannot be read. */
    public static int orientation(byte[] bytes) {
        try {
            Metadata m = ImageMetadataReader.readMetadata(new ByteArrayInputStream(bytes), bytes.length);
            ExifIFD0Directory d = m.getFirstDirectoryOfType(ExifIFD0Directory.class);
            if (d != null && d.containsTag(ExifIFD0Directory.TAG_ORIENTATION)) {
                int o = d.getInt(ExifIFD0Directory.TAG_ORIENTATION);
                return o >= 1 && o <= 8 ? o : 1;
            }
        } catch (ImageProcessingException | IOException | MetadataException | RuntimeException e) {
            // No readable orientation: show the pixels as stored, as most viewers then do.
        }
        return 1;
    }

    private static BufferedImage normalise(BufferedImage raw) {
        boolean a = raw.getColorModel().hasAlpha();
        int w = raw.getWidth();
        int h = raw.getHeight();
        BufferedImage out = new BufferedImage(w, h, a ? BufferedImage.TYPE_INT_ARGB : BufferedImage.TYPE_INT_RGB);
        int[] dst = ((DataBufferInt) out.getRaster().getDataBuffer()).getData();
        if (raw.getType() == BufferedImage.TYPE_3BYTE_BGR && raw.getRaster().getDataBuffer() instanceof DataBufferByte bytes
                && raw.getRaster().getParent() == null && bytes.getOffset() == 0 && bytes.getNumBanks() == 1
                && raw.getRaster().getSampleModel() instanceof ComponentSampleModel sm
                && sm.getScanlineStride() == 3 * w && sm.getPixelStride() == 3) {
            // What JPEG decodes to: unpack the bytes directly, as getRGB would, but many times faster.
            byte[] src = bytes.getData();
            for (int i = 0, j = 0; i < dst.length; i++, j += 3) {
                dst[i] = 0xFF000000 | (src[j + 2] & 0xFF) << 16 | (src[j + 1] & 0xFF) << 8 | (src[j] & 0xFF);
            }
            return out;
        }
        int rows = Math.max(1, (1 << 20) / Math.max(1, w));
        for (int y = 0; y < h; y += rows) {
            int n = Math.min(rows, h - y);
            raw.getRGB(0, y, w, n, dst, y * w, w);
        }
        if (!a) {
            for (int i = 0; i < dst.length; i++) {
                dst[i] |= 0xFF000000;
            }
        }
        return out;
    }

    /** A picture of an image of type {@code TYPE_INT_RGB} or {@code TYPE_INT_ARGB} (opaque pixels get alpha 255). */
    static Picture of(BufferedImage image, boolean alpha, int orientation) {
        Picture p = new Picture(image, alpha, orientation);
        if (!alpha) {
            for (int i = 0; i < p.pixels.length; i++) {
                p.pixels[i] |= 0xFF000000;
            }
        }
        return p;
    }

    /** Width in pixels, as displayed. */
    public int width() {
        return width;
    }

    /** Height in pixels, as displayed. */
    public int height() {
        return height;
    }

    /** Whether the image has an alpha channel. */
    public boolean hasAlpha() {
        return alpha;
    }

    /** The EXIF orientation that was applied on decoding (1: none). */
    public int orientation() {
        return orientation;
    }

    /** The ARGB value of one pixel (alpha 255 for opaque images). */
    public int argb(int x, int y) {
        return pixels[y * width + x];
    }

    /** The pixel-block size used for a region: at least 8, about a sixth of its shorter side. */
    public static int blockSize(Box region) {
        return Math.max(8, (Math.min(region.width(), region.height()) + 5) / 6);
    }

    /** Replaces each block of a region by its average colour; irreversible. */
    public void pixelate(Box region) {
        check(region);
        RegionFilters.pixelate(pixels, width, region, blockSize(region));
    }

    /**
     * Blurs a region so strongly that nothing finer than {@link #blockSize} survives: block averages are
     * interpolated smoothly and then box-blurred. As with pixelation, the result depends only on the block
     * averages, so sharpening cannot bring back detail.
     */
    public void blur(Box region) {
        check(region);
        RegionFilters.blur(pixels, width, region, blockSize(region));
    }

    /** Paints a region opaque black. */
    public void fill(Box region) {
        check(region);
        RegionFilters.fill(pixels, width, region);
    }

    private void check(Box region) {
        if (!region.fitsIn(width, height)) {
            throw new IllegalArgumentException("region " + region + " is outside the " + width + "x" + height + " image");
        }
    }

    /** The ICC profile of sRGB, the colour space of every picture here (a PDF/A document's output intent). */
    public static byte[] srgbProfile() {
        return ICC_Profile.getInstance(ColorSpace.CS_sRGB).getData();
    }

    /**
     * A copy no larger than {@code maxSide} pixels on its longer side (the same picture when it is smaller
     * already), for a report's thumbnail; smooth (bilinear) scaling, the same pixels for the same input.
     */
    public Picture scaledTo(int maxSide) {
        if (maxSide < 1) {
            throw new IllegalArgumentException("maxSide must be positive");
        }
        if (Math.max(width, height) <= maxSide) {
            return this;
        }
        double f = (double) maxSide / Math.max(width, height);
        int w = Math.max(1, (int) Math.round(width * f));
        int h = Math.max(1, (int) Math.round(height * f));
        BufferedImage out = new BufferedImage(w, h, alpha ? BufferedImage.TYPE_INT_ARGB : BufferedImage.TYPE_INT_RGB);
        Graphics2D g = out.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
            g.setRenderingHint(RenderingHints.KEY_RENDERING, RenderingHints.VALUE_RENDER_QUALITY);
            g.drawImage(image, 0, 0, w, h, null);
        } finally {
            g.dispose();
        }
        return new Picture(out, alpha, orientation);
    }

    /**
     * Encodes the image, without any metadata.
     *
     * @param format JPEG (quality {@link #JPEG_QUALITY}; an alpha channel is flattened onto white) or PNG
     */
    public byte[] encode(ImageFormat format) {
        BufferedImage img = image;
        if (format == ImageFormat.JPEG) {
            // The JPEG encoder reads interleaved bytes directly; from packed ints it converts pixel by pixel.
            img = RegionFilters.toBgrBytes(alpha ? RegionFilters.flattenOnWhite(image) : image);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(Math.max(1 << 16, width * height / 4));
        ImageWriter writer = ImageIO.getImageWritersByFormatName(format.imageIoName()).next();
        try (MemoryCacheImageOutputStream out = new MemoryCacheImageOutputStream(bytes)) {
            writer.setOutput(out);
            ImageWriteParam p = writer.getDefaultWriteParam();
            IIOMetadata meta = null;
            if (format == ImageFormat.JPEG) {
                p.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
                p.setCompressionQuality(JPEG_QUALITY);
                meta = fullChroma(writer, img, p);
            }
            writer.write(null, new IIOImage(img, null, meta), p);
        } catch (IOException e) {
            throw new IllegalStateException("encoding to memory failed", e);
        } finally {
            writer.dispose();
        }
        return bytes.toByteArray();
    }

    /**
     * The encoder's default JPEG header with every component sampled at full resolution (4:4:4): chroma
     * is not halved, so colour edges outside the regions survive re-encoding far better.
     */
    private static IIOMetadata fullChroma(ImageWriter writer, BufferedImage img, ImageWriteParam p) throws IOException {
        IIOMetadata meta = writer.getDefaultImageMetadata(ImageTypeSpecifier.createFromRenderedImage(img), p);
        String format = "javax_imageio_jpeg_image_1.0";
        Node tree = meta.getAsTree(format);
        NodeList specs = ((Element) tree).getElementsByTagName("componentSpec");
        for (int i = 0; i < specs.getLength(); i++) {
            Element c = (Element) specs.item(i);
            c.setAttribute("HsamplingFactor", "1");
            c.setAttribute("VsamplingFactor", "1");
        }
        meta.setFromTree(format, tree);
        return meta;
    }
}
