// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import org.proofmode.bundle.ProofFiles;
import org.proofmode.imaging.StreamHashes;
import org.proofmode.imaging.StreamHashes.Decoded;
import org.proofmode.imaging.StreamHashes.Frames;
import org.proofmode.imaging.StreamHashes.NotHashed;
import org.proofmode.imaging.StreamHashes.Streams;
import org.proofmode.media.MediaKind;
import org.proofmode.proof.ContextFields;
import org.proofmode.proof.MediaFile;
import org.proofmode.proof.ProofRecord;

/**
 * Adds the content hashes of video and audio (see {@link StreamHashes}): {@code Video.FrameHash} and
 * {@code Video.FrameCount} for the first video stream of a video, with the frame list as the signed
 * {@code <h>.frames} file beside the proof; {@code Audio.SampleHash} for the first audio stream of an audio
 * file or a video; and {@code Media.Decoder}, the FFmpeg that computed them. A stream FFmpeg cannot decode
 * gets a warning ({@code Warning.Video}, {@code Warning.Audio}), never a failed proof.
 */
public final class StreamHashSource implements MetadataSource {
    @Override
    public String name() {
        return "Video";
    }

    @Override
    public void contribute(MediaFile media, ProofRecord.Builder record) throws NotHashed {
        MediaKind kind = media.type().kind();
        if (kind != MediaKind.VIDEO && kind != MediaKind.AUDIO) {
            return;
        }
        String source = kind == MediaKind.VIDEO ? "Video" : "Audio";
        if (!StreamHashes.available()) {
            record.warn(source, "ffmpeg and ffprobe not found on PATH: no " + (kind == MediaKind.VIDEO ? "frame" : "sample")
                    + " hash (install FFmpeg, or set frame-hashes to false)");
            return;
        }
        String decoder = StreamHashes.decoder();
        Streams streams;
        try {
            streams = StreamHashes.probe(media.path());
        } catch (NotHashed e) {
            record.warn(source, e.getMessage());
            return;
        }
        boolean hashed = false;
        if (kind == MediaKind.VIDEO && streams.video()) {
            try {
                Decoded<Frames> d = StreamHashes.frames(media.path(), streams.seconds());
                byte[] list = d.value().list(decoder);
                if (list.length > Frames.maxListBytes(media.size())) {
                    // The verifier reads no more of a list for media of this size: never write what it refuses.
                    throw new NotHashed("the frame list (" + list.length + " bytes) is larger than a verifier reads for a "
                            + media.size() + "-byte video (" + Frames.maxListBytes(media.size()) + " bytes)");
                }
                record.put(ContextFields.VIDEO_FRAME_HASH, d.value().frameHash());
                record.put(ContextFields.VIDEO_FRAME_COUNT, Integer.toString(d.value().count()));
                record.attach(ProofFiles.FRAMES, list);
                d.errors().ifPresent(m -> record.warn("Video", "ffmpeg reported decoding errors (the hash is of what it decoded): " + m));
                hashed = true;
            } catch (NotHashed e) {
                record.warn("Video", e.getMessage());
            }
        }
        if (streams.audio()) {
            try {
                Decoded<String> d = StreamHashes.samples(media.path(), streams.seconds());
                record.put(ContextFields.AUDIO_SAMPLE_HASH, d.value());
                d.errors().ifPresent(m -> record.warn("Audio", "ffmpeg reported decoding errors (the hash is of what it decoded): " + m));
                hashed = true;
            } catch (NotHashed e) {
                record.warn("Audio", e.getMessage());
            }
        }
        if (hashed) {
            record.put(ContextFields.MEDIA_DECODER, decoder);
        } else if (!streams.video() && !streams.audio()) {
            record.warn(source, "ffmpeg finds no video or audio stream in the file");
        }
    }
}
