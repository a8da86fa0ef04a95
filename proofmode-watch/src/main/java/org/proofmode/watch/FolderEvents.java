// SPDX-License-Identifier: Apache-2.0
package org.proofmode.watch;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * File-system events for the watched folders ({@link WatchService}). Events only say where to look: the
 * watcher checks every path it is told about, and rescans when events were lost ({@link #overflowed()}).
 */
final class FolderEvents implements AutoCloseable {
    private final WatchService service;
    private final Map<WatchKey, Path> keys = new HashMap<>();
    private final boolean recursive;
    private boolean overflow;

    FolderEvents(boolean recursive) throws IOException {
        this.service = FileSystems.getDefault().newWatchService();
        this.recursive = recursive;
    }

    /**
     * Watches a folder (and with recursion, every folder below it).
     *
     * @return the folders newly registered
     */
    List<Path> register(Path dir) throws IOException {
        List<Path> added = new ArrayList<>();
        if (!recursive) {
            add(dir, added);
            return added;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            // Folders only, never a link to one: a link can loop back (every file seen twice) or lead out of the tree.
            for (Path d : (Iterable<Path>) s.filter(p -> Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS))::iterator) {
                if (!d.getFileName().toString().startsWith(".") || d.equals(dir)) {
                    add(d, added);
                }
            }
        }
        return added;
    }

    private void add(Path d, List<Path> added) throws IOException {
        if (keys.containsValue(d)) {
            return;
        }
        WatchKey k = d.register(service, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY,
                StandardWatchEventKinds.ENTRY_DELETE);
        keys.put(k, d);
        added.add(d);
    }

    /**
     * Waits up to {@code millis} for events and returns the paths they name (files or folders, existing or
     * not), in order.
     */
    List<Path> poll(long millis) throws InterruptedException {
        List<Path> out = new ArrayList<>();
        WatchKey k;
        try {
            k = service.poll(millis, TimeUnit.MILLISECONDS);
            while (k != null) {
                Path dir = keys.get(k);
                for (WatchEvent<?> e : k.pollEvents()) {
                    if (e.kind() == StandardWatchEventKinds.OVERFLOW) {
                        overflow = true;
                    } else if (dir != null && e.context() instanceof Path name) {
                        out.add(dir.resolve(name));
                    }
                }
                if (!k.reset()) {
                    keys.remove(k);
                }
                k = service.poll();
            }
        } catch (ClosedWatchServiceException e) {
            return out;
        }
        return out;
    }

    /** Tells whether events were lost since the last call, and clears the flag. */
    boolean overflowed() {
        boolean o = overflow;
        overflow = false;
        return o;
    }

    @Override
    public void close() throws IOException {
        service.close();
    }
}
