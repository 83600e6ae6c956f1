package org.psdkit.linalg;

/** A numerical failure inside the linear-algebra floor (non-convergence, a matrix that is not definite). */
public class LinalgException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public LinalgException(String message) {
        super(message);
    }
}
