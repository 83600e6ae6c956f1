package org.psdkit.linalg;

import org.bytedeco.javacpp.DoublePointer;
import org.bytedeco.javacpp.IntPointer;

/**
 * Per-thread native buffers reused by {@link Linalg}'s BLAS/LAPACK calls.
 *
 * <p>JavaCPP copies each {@code double[]} argument into freshly allocated native memory and back on every call.
 * That makes {@code cblas_dgemm} with Java arrays several times slower than the same call on reused native buffers,
 * because the fresh pages must be faulted in (docs/benchmarks/linalg.md). These buffers grow to the largest size a
 * thread has used and stay allocated; {@link Linalg#releaseBuffers()} frees the calling thread's buffers.
 */
final class NativeScratch {
    /** Slots: three matrix operands, eigenvalues, and the LAPACK work array. */
    static final int A = 0;
    static final int B = 1;
    static final int C = 2;
    static final int W = 3;
    static final int WORK = 4;
    private static final int SLOTS = 5;

    private static final ThreadLocal<NativeScratch> LOCAL = ThreadLocal.withInitial(NativeScratch::new);

    private final DoublePointer[] slots = new DoublePointer[SLOTS];
    private IntPointer ints;

    static NativeScratch get() {
        return LOCAL.get();
    }

    /** A buffer of at least {@code size} doubles in {@code slot}, positioned at 0 (contents undefined). */
    DoublePointer doubles(int slot, long size) {
        DoublePointer p = slots[slot];
        if (p == null || p.capacity() < size) {
            if (p != null) {
                p.deallocate();
            }
            p = new DoublePointer(Math.max(1L, size));
            slots[slot] = p;
        }
        return p.position(0);
    }

    /** Slot buffer holding a copy of {@code data}. */
    DoublePointer copyOf(int slot, double[] data) {
        DoublePointer p = doubles(slot, data.length);
        p.put(data, 0, data.length);
        return p.position(0);
    }

    /** An int buffer of at least {@code size} entries. */
    IntPointer ints(long size) {
        if (ints == null || ints.capacity() < size) {
            if (ints != null) {
                ints.deallocate();
            }
            ints = new IntPointer(Math.max(1L, size));
        }
        return ints.position(0);
    }

    static void release() {
        NativeScratch s = LOCAL.get();
        for (int i = 0; i < SLOTS; i++) {
            if (s.slots[i] != null) {
                s.slots[i].deallocate();
                s.slots[i] = null;
            }
        }
        if (s.ints != null) {
            s.ints.deallocate();
            s.ints = null;
        }
    }
}
