package org.psdkit.data;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Atomic file output shared by every writer of psdkit (model files, CSV, SDPA files, figures).
 *
 * <p>The bytes go to a temporary sibling of the target, which is then renamed over it, so a failed write never
 * leaves a half-written file behind. Permissions are those of a plain write: a new file gets what the process's umask
 * gives a newly created file (0666 &amp; ~umask, e.g. 0644 under umask 022), because the temporary file is created
 * with {@link Files#createFile} and no explicit mode (unlike {@link Files#createTempFile}, which always gives 0600);
 * an existing target keeps its mode. On file systems without POSIX permissions the defaults are left alone.
 *
 * <p>An output path that is a symbolic link is written through: the link's final target (see {@link #target}) is
 * replaced atomically by a temporary sibling of the target, and the link itself stays a link.
 *
 * <p>An existing target that is neither a regular file nor a folder ({@code /dev/null}, a named pipe) is written
 * directly: renaming a file over it would replace the device or pipe with a regular file (as root,
 * {@code --out /dev/null} replaced the system's {@code /dev/null}). The process's standard output and error
 * ({@code /dev/stdout}, {@code /dev/stderr}) are written through their descriptors, whatever they are redirected to.
 * An existing folder is refused.
 */
public final class OutputFiles {
    /** How many random temporary names to try before giving up (a collision needs 64 random bits to repeat). */
    private static final int TEMP_NAME_ATTEMPTS = 16;
    /** Longest chain of symbolic links followed; Linux's own limit for path resolution is 40 (MAXSYMLINKS). */
    private static final int MAX_LINKS = 40;

    private OutputFiles() {
    }

    /** The content of a file, written to a stream (which the caller closes). */
    @FunctionalInterface
    public interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    /**
     * Writes {@code bytes} to {@code out} through a temporary sibling and a rename (directly to a device or pipe).
     *
     * @throws IOException if the folder does not exist or cannot be written, or {@code out} is a folder
     */
    public static void writeAtomically(Path out, byte[] bytes) throws IOException {
        writeAtomically(out, os -> os.write(bytes));
    }

    /**
     * As {@link #writeAtomically(Path, byte[])}, streaming: {@code content} writes the bytes to a buffered stream on
     * the temporary sibling, so that a large file (a benchmark's generated data) never has to be held in memory. If
     * it throws, the target is left as it was.
     *
     * @throws IOException if the folder does not exist or cannot be written, {@code out} is a folder, or
     *                     {@code content} fails
     */
    public static void writeAtomically(Path out, Content content) throws IOException {
        if (writeToStandardStream(out, content)) {
            return;
        }
        Path abs = target(out);
        if (Files.isDirectory(abs)) {
            throw new IOException(out + " is a folder");
        }
        if (Files.exists(abs) && !Files.isRegularFile(abs)) {
            try (OutputStream os = Files.newOutputStream(abs, java.nio.file.StandardOpenOption.WRITE)) {
                content.writeTo(os);
            }
            return;
        }
        Path dir = abs.getParent();
        Set<PosixFilePermission> keep = existingPermissions(abs);
        Path tmp = createSibling(dir, abs.getFileName().toString());
        PENDING.add(tmp);
        try {
            if (keep != null) {
                // before the bytes go in, so that a restrictive mode never exposes the new content
                Files.setPosixFilePermissions(tmp, keep);
            }
            try (OutputStream os = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16)) {
                content.writeTo(os);
            }
            try {
                Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
            PENDING.remove(tmp);
        }
    }

    /**
     * Writes to the process's own standard output or error when {@code out} names it ({@code /dev/stdout},
     * {@code /dev/stderr}, {@code /dev/fd/1}, {@code /dev/fd/2}, {@code /proc/self/fd/1}, {@code /proc/self/fd/2}):
     * through the inherited descriptor, at its offset. When the stream is redirected to a regular file that file is
     * not replaced: {@code --out /dev/stdout >> log} appends to the log instead of renaming a new file over it (which
     * lost the log's earlier lines and, with {@code >}, anything the shell wrote there after psdkit).
     *
     * @return whether {@code out} named a standard stream (and the bytes were written)
     */
    private static boolean writeToStandardStream(Path out, Content content) throws IOException {
        String p = out.toAbsolutePath().normalize().toString();
        java.io.FileDescriptor fd;
        java.io.PrintStream before;
        if (p.equals("/dev/stdout") || p.equals("/dev/fd/1") || p.equals("/proc/self/fd/1")) {
            fd = java.io.FileDescriptor.out;
            before = System.out;
        } else if (p.equals("/dev/stderr") || p.equals("/dev/fd/2") || p.equals("/proc/self/fd/2")) {
            fd = java.io.FileDescriptor.err;
            before = System.err;
        } else {
            return false;
        }
        before.flush(); // what psdkit printed earlier stays before the file's bytes
        // not closed: that would close the descriptor
        OutputStream os = new BufferedOutputStream(new java.io.FileOutputStream(fd), 1 << 16);
        content.writeTo(os);
        os.flush();
        return true;
    }

    /**
     * Temporary files being written now. A shutdown hook (SIGTERM, SIGINT, {@code System.exit} during a write)
     * deletes them, so that a signal leaves neither a half-written target (the rename never happened) nor a stray
     * temporary file.
     */
    private static final Set<Path> PENDING = ConcurrentHashMap.newKeySet();

    static {
        try {
            Runtime.getRuntime().addShutdownHook(new Thread(OutputFiles::deletePending, "psdkit-output-cleanup"));
        } catch (IllegalStateException e) {
            // already shutting down: nothing can be pending yet
        }
    }

    private static void deletePending() {
        for (Path p : PENDING) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException e) {
                // best effort while the JVM exits
            }
        }
    }

    /**
     * The file a write to {@code out} really replaces, as an absolute path whose folder has no symbolic links: the
     * real path of an existing file; for a symbolic link (also a dangling one) the final target of the chain of
     * links; for a file that does not exist yet, the real path of its folder plus its name; for a device or pipe
     * without a real path ({@code /dev/stdout} on a pipe), the path itself. Two paths name the same output exactly
     * when their targets are equal.
     *
     * @throws IOException if a chain of links is longer than {@value #MAX_LINKS} or a link cannot be read
     */
    public static Path target(Path out) throws IOException {
        Path p = out.toAbsolutePath().normalize();
        for (int links = 0; ; links++) {
            if (Files.exists(p)) {
                try {
                    return p.toRealPath();
                } catch (IOException e) {
                    if (Files.isRegularFile(p)) {
                        throw e;
                    }
                    // /dev/stdout when it is a pipe: /proc/self/fd/1 links to "pipe:[…]", which is no path
                    return p;
                }
            }
            if (!Files.isSymbolicLink(p)) {
                Path dir = p.getParent();
                Path name = p.getFileName();
                if (dir == null || name == null) {
                    return p;
                }
                Path realDir = Files.isDirectory(dir) ? dir.toRealPath() : dir;
                return realDir.resolve(name.toString());
            }
            if (links >= MAX_LINKS) {
                throw new IOException(out + ": more than " + MAX_LINKS + " symbolic links in a chain");
            }
            // a dangling link: follow it by hand (toRealPath needs the target to exist)
            Path link = Files.readSymbolicLink(p);
            p = (p.getParent() == null ? link : p.getParent().resolve(link)).toAbsolutePath().normalize();
        }
    }

    /** The POSIX permissions of an existing regular file, or {@code null} (no such file, or no POSIX view). */
    private static Set<PosixFilePermission> existingPermissions(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        PosixFileAttributeView view = Files.getFileAttributeView(file, PosixFileAttributeView.class);
        return view == null ? null : view.readAttributes().permissions();
    }

    /** A new empty file {@code .NAME.RANDOM.tmp} in {@code dir}, created with the default (umask) mode. */
    private static Path createSibling(Path dir, String name) throws IOException {
        FileAlreadyExistsException last = null;
        for (int attempt = 0; attempt < TEMP_NAME_ATTEMPTS; attempt++) {
            String random = Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36);
            Path tmp = dir.resolve("." + name + "." + random + ".tmp");
            try {
                return Files.createFile(tmp);
            } catch (FileAlreadyExistsException e) {
                last = e;
            }
        }
        throw last;
    }
}
