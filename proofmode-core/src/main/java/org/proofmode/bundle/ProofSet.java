// SPDX-License-Identifier: Apache-2.0
package org.proofmode.bundle;

import java.nio.file.Path;
import java.util.Optional;
import org.proofmode.failure.Failure;
import org.proofmode.failure.ProofModeException;

/**
 * One stored proof set, read and grown file by file the same way whether it is a plain folder
 * ({@code <h>/}, in a plain store or under {@code prove --out}) or sealed in an encrypted store
 * ({@link ProofStore#set(Path, String)}): what timestamps, log receipts and other late files are added
 * through. Adding is atomic: a reader sees the set before or after the file was added, never a part.
 */
public interface ProofSet {
    /** The media hash naming the set. */
    String sha256();

    /**
     * Where the set is now: its folder (for a sealed set, one with a random name, which an addition
     * replaces by another).
     */
    Path folder();

    /**
     * Whether the set holds a file of that name.
     *
     * @throws ProofModeException with {@link Failure#KEY_LOCKED} if the set is sealed and cannot be read
     */
    boolean has(String name);

    /**
     * A file of the set, if it holds one of that name.
     *
     * @throws ProofModeException with {@link Failure#KEY_LOCKED} if the set is sealed and cannot be read,
     *     {@link Failure#IO} if it cannot be read, {@link Failure#BAD_DATA} if a sealed object is damaged
     */
    Optional<byte[]> read(String name);

    /**
     * Adds a file to the set, atomically.
     *
     * @param replace whether a file of that name already there is replaced
     * @return false if one was there and {@code replace} is false (nothing changed)
     * @throws ProofModeException with {@link Failure#IO} if the disk refuses the write (the set is then as
     *     before), {@link Failure#INPUT_MISSING} if the set is gone
     */
    boolean add(String name, byte[] content, boolean replace);
}
