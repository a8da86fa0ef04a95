// SPDX-License-Identifier: Apache-2.0
package org.proofmode.imaging;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.opencv.core.CvType;
import org.opencv.core.Mat;
import org.opencv.core.MatOfRect;
import org.opencv.core.Rect;
import org.opencv.core.Size;
import org.opencv.imgproc.Imgproc;
import org.opencv.objdetect.CascadeClassifier;

/**
 * Finds frontal faces with an OpenCV Haar cascade (such as {@code haarcascade_frontalface_default.xml}
 * from Debian's {@code opencv-data}). Detection misses faces (profiles, small or covered ones) and
 * sometimes finds faces that are not there: its boxes are suggestions for a person to review, never a
 * guarantee.
 *
 * <p>The image is scaled down to at most {@link #DETECT_SIDE} pixels on its longer side for detection,
 * and each box is grown by a fifth on every side so that hair line, ears and chin are covered.
 */
public final class FaceDetector {
    /** Longest side, in pixels, of the copy detection runs on. */
    public static final int DETECT_SIDE = 1600;

    private final CascadeClassifier cascade;

    private FaceDetector(CascadeClassifier cascade) {
        this.cascade = cascade;
    }

    /** Why face detection cannot run. */
    public static final class Unavailable extends Exception {
        private static final long serialVersionUID = 1L;
        private final boolean modelMissing;

        Unavailable(String message, boolean modelMissing, Throwable cause) {
            super(message, cause);
            this.modelMissing = modelMissing;
        }

        /** Whether the model file is missing (rather than OpenCV itself). */
        public boolean modelMissing() {
            return modelMissing;
        }
    }

    /** Why face detection cannot run when OpenCV's Java classes are missing; a constant, so naming it loads no OpenCV class. */
    public static final String OPENCV_MISSING = OpenCvLibrary.MISSING;

    /**
     * Loads OpenCV and a cascade model.
     *
     * @param model the cascade XML file
     * @throws Unavailable if the model file is missing or unreadable, or OpenCV cannot be loaded on this platform
     */
    public static FaceDetector open(Path model) throws Unavailable {
        Objects.requireNonNull(model, "model");
        if (!Files.isRegularFile(model)) {
            throw new Unavailable("face model not found: " + model, true, null);
        }
        loadOpenCv();
        CascadeClassifier c = new CascadeClassifier();
        boolean ok;
        try {
            ok = c.load(model.toString());
        } catch (RuntimeException e) {
            ok = false;
        }
        if (!ok || c.empty()) {
            throw new Unavailable(model + ": not an OpenCV cascade model", true, null);
        }
        return new FaceDetector(c);
    }

    private static void loadOpenCv() throws Unavailable {
        Optional<String> failed = OpenCvLibrary.load();
        if (failed.isPresent()) {
            throw new Unavailable(failed.get(), false, null);
        }
    }

    /**
     * Detects faces.
     *
     * @return boxes in the picture's coordinates, top to bottom, left to right
     */
    public List<Box> detect(Picture picture) {
        int w = picture.width();
        int h = picture.height();
        double scale = Math.min(1.0, (double) DETECT_SIDE / Math.max(w, h));
        int sw = Math.max(1, (int) Math.round(w * scale));
        int sh = Math.max(1, (int) Math.round(h * scale));
        byte[] gray = grayScaled(picture, sw, sh);
        Mat m = new Mat(sh, sw, CvType.CV_8UC1);
        MatOfRect found = new MatOfRect();
        try {
            m.put(0, 0, gray);
            Imgproc.equalizeHist(m, m);
            int min = Math.max(20, Math.min(sw, sh) / 40);
            cascade.detectMultiScale(m, found, 1.1, 5, 0, new Size(min, min), new Size());
            List<Box> out = new ArrayList<>();
            for (Rect r : found.toArray()) {
                int gx = (int) Math.round(r.width / scale / 5);
                int gy = (int) Math.round(r.height / scale / 5);
                int x0 = Math.max(0, (int) Math.floor(r.x / scale) - gx);
                int y0 = Math.max(0, (int) Math.floor(r.y / scale) - gy);
                int x1 = Math.min(w, (int) Math.ceil((r.x + r.width) / scale) + gx);
                int y1 = Math.min(h, (int) Math.ceil((r.y + r.height) / scale) + gy);
                out.add(new Box(x0, y0, x1 - x0, y1 - y0));
            }
            out.sort(Comparator.comparingInt(Box::y).thenComparingInt(Box::x));
            return out;
        } finally {
            m.release();
            found.release();
        }
    }

    /** Luma of the picture, box-averaged down to sw by sh. */
    private static byte[] grayScaled(Picture p, int sw, int sh) {
        int w = p.width();
        int h = p.height();
        long[] sum = new long[sw * sh];
        int[] count = new int[sw * sh];
        for (int y = 0; y < h; y++) {
            int ty = (int) ((long) y * sh / h) * sw;
            for (int x = 0; x < w; x++) {
                int c = p.argb(x, y);
                int i = ty + (int) ((long) x * sw / w);
                sum[i] += (299 * ((c >>> 16) & 0xFF) + 587 * ((c >>> 8) & 0xFF) + 114 * (c & 0xFF)) / 1000;
                count[i]++;
            }
        }
        byte[] out = new byte[sw * sh];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) (count[i] == 0 ? 0 : sum[i] / count[i]);
        }
        return out;
    }
}
