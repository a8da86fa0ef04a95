// SPDX-License-Identifier: Apache-2.0
package org.proofmode.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.OptionalLong;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.LongRange;
import org.proofmode.imaging.StreamHashes.Frames;

/** Every frame list the prover writes, and would keep for media of its size, the verifier reads back as written. */
class FrameListPropertiesTest {
    @Provide
    Arbitrary<Frames> frames() {
        Arbitrary<List<Long>> pts = Arbitraries.longs().list().ofMinSize(1).ofMaxSize(300);
        Arbitrary<List<Long>> seconds = Arbitraries.longs().list().ofMaxSize(300);
        Arbitrary<byte[]> digests = Arbitraries.bytes().array(byte[].class).ofSize(32);
        Arbitrary<String> timeBase = Arbitraries.of("1/25", "1/90000", "1001/30000", "1/1000000000", "?");
        return net.jqwik.api.Combinators.combine(pts, seconds, digests, timeBase).as((p, s, d, tb) -> {
            Frames.Builder b = new Frames.Builder();
            for (int i = 0; i < p.size(); i++) {
                byte[] digest = d.clone();
                digest[i % 32] ^= (byte) i;
                b.add(p.get(i), digest);
            }
            s.forEach(b::second);
            return b.build(tb);
        });
    }

    @Provide
    Arbitrary<String> decoders() {
        return Arbitraries.strings().all().ofMaxLength(2000);
    }

    @Property(tries = 300)
    void everyListTheProverKeeps_theVerifierReads(@ForAll("frames") Frames made, @ForAll("decoders") String decoder,
            @ForAll @LongRange(min = 0, max = 1L << 40) long mediaBytes) {
        byte[] list = made.list(decoder);
        boolean proverKeeps = made.count() <= Frames.maxFrames(mediaBytes) && made.seconds().length <= Frames.maxFrames(mediaBytes)
                && list.length <= Frames.maxListBytes(mediaBytes);
        if (proverKeeps) {
            FrameList.Read read = FrameList.read(list, OptionalLong.of(mediaBytes));
            assertThat(read.problem()).isEmpty();
            assertThat(read.frames()).contains(made);
        }
        // Whatever the media's size, a list that fits 64 MiB is read.
        assertThat(FrameList.read(list, OptionalLong.of(mediaBytes)).frames()).contains(made);
    }
}
