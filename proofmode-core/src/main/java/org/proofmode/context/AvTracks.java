// SPDX-License-Identifier: Apache-2.0
package org.proofmode.context;

import com.drew.metadata.Directory;
import com.drew.metadata.Metadata;
import com.drew.metadata.mov.QuickTimeDirectory;
import com.drew.metadata.mov.media.QuickTimeSoundDirectory;
import com.drew.metadata.mov.media.QuickTimeVideoDirectory;
import com.drew.metadata.mov.metadata.QuickTimeMetadataDirectory;
import com.drew.metadata.mp3.Mp3Directory;
import com.drew.metadata.mp4.Mp4Directory;
import com.drew.metadata.mp4.media.Mp4SoundDirectory;
import com.drew.metadata.mp4.media.Mp4VideoDirectory;
import com.drew.metadata.wav.WavDirectory;
import java.util.Date;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.proofmode.media.MediaKind;
import org.proofmode.media.TagText;
import org.proofmode.proof.ContextFields;
import org.proofmode.proof.MediaFile;
import org.proofmode.proof.ProofRecord;
import org.proofmode.proof.ProofTimes;

/** The {@code Video.*} and {@code Audio.*} fields of QuickTime/MP4, WAV and MP3 files. */
final class AvTracks {
    /** QuickTime's epoch: a creation time of 1904-01-01 means "not set". */
    private static final long QUICKTIME_EPOCH_MS = -2082844800000L;
    private static final Pattern ISO6709 = Pattern.compile("([+-]\\d+(?:\\.\\d+)?)([+-]\\d+(?:\\.\\d+)?)");

    private AvTracks() {}

    static void contribute(Metadata m, MediaFile media, boolean location, ProofRecord.Builder r) {
        String container = media.type().kind() == MediaKind.AUDIO ? "Audio" : "Video";
        Directory movie = first(m, Mp4Directory.class, QuickTimeDirectory.class);
        if (movie != null) {
            Double seconds = movie.getDoubleObject(Mp4Directory.TAG_DURATION_SECONDS);
            if (seconds != null) {
                r.put(container + ".Duration", seconds(seconds));
            }
            Date created = movie.getDate(Mp4Directory.TAG_CREATION_TIME);
            if (created != null && created.getTime() > QUICKTIME_EPOCH_MS) {
                r.put(ContextFields.VIDEO_CREATION_TIME, ProofTimes.format(created.toInstant()));
            }
            if (location && movie instanceof Mp4Directory mp4 && mp4.getDoubleObject(Mp4Directory.TAG_LATITUDE) != null
                    && mp4.getDoubleObject(Mp4Directory.TAG_LONGITUDE) != null) {
                r.put(ContextFields.VIDEO_GPS_LATITUDE, Fix.decimal(mp4.getDoubleObject(Mp4Directory.TAG_LATITUDE)));
                r.put(ContextFields.VIDEO_GPS_LONGITUDE, Fix.decimal(mp4.getDoubleObject(Mp4Directory.TAG_LONGITUDE)));
            }
        }
        Directory video = first(m, Mp4VideoDirectory.class, QuickTimeVideoDirectory.class);
        if (video != null) {
            boolean mp4 = video instanceof Mp4VideoDirectory;
            MediaMetadataSource.put(r, "Video.Width", video, mp4 ? Mp4VideoDirectory.TAG_WIDTH : QuickTimeVideoDirectory.TAG_WIDTH);
            MediaMetadataSource.put(r, "Video.Height", video, mp4 ? Mp4VideoDirectory.TAG_HEIGHT : QuickTimeVideoDirectory.TAG_HEIGHT);
            MediaMetadataSource.put(r, "Video.Codec", video, mp4 ? Mp4VideoDirectory.TAG_COMPRESSION_TYPE : QuickTimeVideoDirectory.TAG_COMPRESSION_TYPE);
            MediaMetadataSource.put(r, "Video.Compressor", video, mp4 ? Mp4VideoDirectory.TAG_COMPRESSOR_NAME : QuickTimeVideoDirectory.TAG_COMPRESSOR_NAME);
            Double fps = video.getDoubleObject(mp4 ? Mp4VideoDirectory.TAG_FRAME_RATE : QuickTimeVideoDirectory.TAG_FRAME_RATE);
            if (fps != null) {
                r.put("Video.FrameRate", seconds(fps));
            }
        }
        Directory sound = first(m, Mp4SoundDirectory.class, QuickTimeSoundDirectory.class);
        if (sound != null) {
            boolean mp4 = sound instanceof Mp4SoundDirectory;
            MediaMetadataSource.put(r, "Audio.Codec", sound, mp4 ? Mp4SoundDirectory.TAG_AUDIO_FORMAT : QuickTimeSoundDirectory.TAG_AUDIO_FORMAT);
            MediaMetadataSource.put(r, "Audio.Channels", sound, mp4 ? Mp4SoundDirectory.TAG_NUMBER_OF_CHANNELS : QuickTimeSoundDirectory.TAG_NUMBER_OF_CHANNELS);
            MediaMetadataSource.put(r, "Audio.SampleRate", sound, mp4 ? Mp4SoundDirectory.TAG_AUDIO_SAMPLE_RATE : QuickTimeSoundDirectory.TAG_AUDIO_SAMPLE_RATE);
        }
        QuickTimeMetadataDirectory keys = m.getFirstDirectoryOfType(QuickTimeMetadataDirectory.class);
        if (keys != null) {
            MediaMetadataSource.put(r, "Video.Make", keys, QuickTimeMetadataDirectory.TAG_MAKE);
            MediaMetadataSource.put(r, "Video.Model", keys, QuickTimeMetadataDirectory.TAG_MODEL);
            MediaMetadataSource.put(r, "Video.Software", keys, QuickTimeMetadataDirectory.TAG_SOFTWARE);
            String iso = keys.getString(QuickTimeMetadataDirectory.TAG_LOCATION_ISO6709);
            Matcher g = iso == null ? null : ISO6709.matcher(iso);
            if (location && g != null && g.lookingAt()) {
                r.put(ContextFields.VIDEO_GPS_LATITUDE, Fix.decimal(Double.parseDouble(g.group(1))));
                r.put(ContextFields.VIDEO_GPS_LONGITUDE, Fix.decimal(Double.parseDouble(g.group(2))));
            }
        }
        WavDirectory wav = m.getFirstDirectoryOfType(WavDirectory.class);
        if (wav != null) {
            MediaMetadataSource.put(r, "Audio.Codec", wav, WavDirectory.TAG_FORMAT);
            MediaMetadataSource.put(r, "Audio.Channels", wav, WavDirectory.TAG_CHANNELS);
            MediaMetadataSource.put(r, "Audio.SampleRate", wav, WavDirectory.TAG_SAMPLES_PER_SEC);
            MediaMetadataSource.put(r, "Audio.BitsPerSample", wav, WavDirectory.TAG_BITS_PER_SAMPLE);
            MediaMetadataSource.put(r, "Audio.Title", wav, WavDirectory.TAG_TITLE);
            MediaMetadataSource.put(r, "Audio.Software", wav, WavDirectory.TAG_SOFTWARE);
            MediaMetadataSource.put(r, "Audio.DateCreated", wav, WavDirectory.TAG_DATE_CREATED);
        }
        Mp3Directory mp3 = m.getFirstDirectoryOfType(Mp3Directory.class);
        if (mp3 != null) {
            String id = mp3.getString(Mp3Directory.TAG_ID);
            String layer = mp3.getString(Mp3Directory.TAG_LAYER);
            if (id != null && layer != null) {
                r.put("Audio.Codec", TagText.clean(id + " " + layer));
            }
            MediaMetadataSource.put(r, "Audio.SampleRate", mp3, Mp3Directory.TAG_FREQUENCY);
            MediaMetadataSource.put(r, "Audio.Bitrate", mp3, Mp3Directory.TAG_BITRATE);
            MediaMetadataSource.put(r, "Audio.ChannelMode", mp3, Mp3Directory.TAG_MODE);
        }
    }

    @SafeVarargs
    private static Directory first(Metadata m, Class<? extends Directory>... kinds) {
        for (Class<? extends Directory> k : kinds) {
            Directory d = m.getFirstDirectoryOfType(k);
            if (d != null) {
                return d;
            }
        }
        return null;
    }

    /** A number of seconds (or frames per second) with at most three decimals. */
    static String seconds(double s) {
        String t = String.format(Locale.ROOT, "%.3f", s);
        return t.replaceAll("0+$", "").replaceAll("\\.$", "");
    }
}
