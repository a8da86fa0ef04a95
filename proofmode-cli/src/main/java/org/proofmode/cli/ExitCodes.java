// SPDX-License-Identifier: Apache-2.0
package org.proofmode.cli;

import org.proofmode.failure.Failure;

/**
 * The exit codes of the command line, following the Stateless OpenPGP CLI where meanings match. This
 * is the one place where failures become numbers; the table is printed by {@code --help}.
 */
public final class ExitCodes {
    /** Success; for verify: every required check passed. */
    public static final int OK = 0;
    /** Internal error (a bug), or local storage failed. */
    public static final int INTERNAL = 1;
    /** compare: the two are perceptually close, not the same. */
    public static final int CLOSE = 2;
    /** Verification ran and found the proof invalid. */
    public static final int INVALID = 3;
    /** Unsupported algorithm, format or version. */
    public static final int UNSUPPORTED = 13;
    /** A required argument is missing. */
    public static final int MISSING_ARGUMENT = 19;
    /** Bad input data: not what it claims (corrupt zip, unparseable key). */
    public static final int BAD_DATA = 41;
    /** Valid, but not signed by a trusted key, and trust was required. */
    public static final int UNTRUSTED = 43;
    /** A timestamp service could not be reached. */
    public static final int TIMESTAMP_UNREACHABLE = 47;
    /** An option is unknown or its value is bad. */
    public static final int BAD_OPTION = 37;
    /** The output exists already. */
    public static final int OUTPUT_EXISTS = 59;
    /** An input is missing. */
    public static final int INPUT_MISSING = 61;
    /** A key is locked: passphrase missing or wrong. */
    public static final int KEY_LOCKED = 67;
    /** Unknown subcommand. */
    public static final int UNKNOWN_SUBCOMMAND = 69;
    /** Options that cannot be combined. */
    public static final int INCOMPATIBLE_OPTIONS = 83;

    /** The table printed at the end of {@code --help}. */
    public static final String HELP_TABLE =
            "Exit codes:%n" +
            "   0  success; for verify: the proof is valid%n" +
            "   1  internal error, or local storage failed (disk full, permissions)%n" +
            "   2  compare: perceptually close, not the same%n" +
            "   3  verify: the proof is invalid (changed media, bad or missing signature); compare: different, or a proof is invalid%n" +
            "  13  unsupported algorithm, format or version; verify: incomplete (a content binding it cannot check); compare: uncomparable%n" +
            "  19  missing argument (or no command at all)%n" +
            "  37  bad option or option value%n" +
            "  41  bad data: input is not what it claims (corrupt zip, unparseable key, damaged encrypted bundle; verify: not a bundle, proof folder or media file)%n" +
            "  43  verify: valid, but not signed by a trusted key while one was required%n" +
            "  47  a timestamp service could not be reached and a timestamp was required; publish: the server, with --require-published%n" +
            "  59  output exists (use --force)%n" +
            "  61  input missing%n" +
            "  67  key locked: passphrase missing or wrong; publish: the server refused the upload token; verify: an encrypted bundle without the --identity that opens it%n" +
            "  69  unknown subcommand or help topic%n" +
            "  83  incompatible options";

    private ExitCodes() {}

    /** Maps a library failure to its exit code. */
    public static int of(Failure failure) {
        return switch (failure) {
            case INPUT_MISSING -> INPUT_MISSING;
            case BAD_DATA -> BAD_DATA;
            case BAD_ARGUMENT -> BAD_OPTION;
            case UNSUPPORTED -> UNSUPPORTED;
            case KEY_LOCKED -> KEY_LOCKED;
            case OUTPUT_EXISTS -> OUTPUT_EXISTS;
            case INCOMPATIBLE_OPTIONS -> INCOMPATIBLE_OPTIONS;
            case SERVICE_UNREACHABLE -> TIMESTAMP_UNREACHABLE;
            case IO, INTERNAL -> INTERNAL;
        };
    }
}
