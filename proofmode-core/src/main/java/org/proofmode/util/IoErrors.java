// SPDX-License-Identifier: Apache-2.0
package org.proofmode.util;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * Input/output errors in the words a user reads. The JDK's file-system exceptions carry only the path as
 * their message ({@code NoSuchFileException: /x}), so a bare {@code getMessage()} tells the user which file
 * but not what went wrong with it.
 */
public final class IoErrors {
    private IoErrors() {}

    /** The file (when the error names one) and what went wrong, e.g. {@code /x/y: no such file or folder}. */
    public static String describe(IOException e) {
        String reason;
        if (e instanceof NoSuchFileException) {
            reason = "no such file or folder";
        } else if (e instanceof AccessDeniedException) {
            reason = "permission denied";
        } else if (e instanceof FileAlreadyExistsException) {
            reason = "already exists";
        } else if (e instanceof NotDirectoryException) {
            reason = "not a folder";
        } else if (e instanceof DirectoryNotEmptyException) {
            reason = "folder not empty";
        } else if (e instanceof FileSystemException f && f.getReason() != null) {
            reason = f.getReason();
        } else {
            String m = e.getMessage();
            return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
        }
        String file = e instanceof FileSystemException f ? f.getFile() : null;
        return file == null ? reason : file + ": " + reason;
    }
}
