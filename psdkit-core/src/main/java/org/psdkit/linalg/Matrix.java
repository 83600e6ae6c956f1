package org.psdkit.linalg;

import java.util.Arrays;

/**
 * A dense real matrix stored column-major in one {@code double[]} so that LAPACK/BLAS take it without copying.
 *
 * <p>Entry (i, j) lives at {@code data[i + j * rows]}. Data sets use the convention "one row per point":
 * an n×d matrix holds n points of dimension d.
 *
 * <p>Methods whose name starts with a verb in the present tense ({@code scaleInPlace}, {@code set}) mutate this
 * matrix; every other method returns a new matrix and leaves its arguments untouched.
 */
public final class Matrix {
    private final int rows;
    private final int cols;
    private final double[] data;

    private Matrix(int rows, int cols, double[] data) {
        this.rows = rows;
        this.cols = cols;
        this.data = data;
    }

    /** A rows×cols matrix of zeros. */
    public static Matrix zeros(int rows, int cols) {
        if (rows < 0 || cols < 0) {
            throw new IllegalArgumentException("matrix dimensions must be non-negative, got " + rows + "x" + cols);
        }
        MemoryBudget.checkMatrix(null, rows, cols);
        return new Matrix(rows, cols, new double[rows * cols]);
    }

    /** The n×n identity. */
    public static Matrix identity(int n) {
        Matrix m = zeros(n, n);
        for (int i = 0; i < n; i++) {
            m.data[i + i * n] = 1.0;
        }
        return m;
    }

    /** Wraps a column-major array without copying; the matrix and the caller then share storage. */
    public static Matrix wrap(int rows, int cols, double[] columnMajor) {
        if (columnMajor.length != (long) rows * cols) {
            throw new IllegalArgumentException("array of length " + columnMajor.length + " cannot hold a "
                    + rows + "x" + cols + " matrix");
        }
        return new Matrix(rows, cols, columnMajor);
    }

    /** Copies a row-major {@code double[][]} (all rows of equal length). */
    public static Matrix of(double[][] rowsArray) {
        int r = rowsArray.length;
        int c = r == 0 ? 0 : rowsArray[0].length;
        Matrix m = zeros(r, c);
        for (int i = 0; i < r; i++) {
            if (rowsArray[i].length != c) {
                throw new IllegalArgumentException("row " + i + " has " + rowsArray[i].length
                        + " entries, expected " + c);
            }
            for (int j = 0; j < c; j++) {
                m.data[i + j * r] = rowsArray[i][j];
            }
        }
        return m;
    }

    /** A column vector (n×1) holding a copy of {@code v}. */
    public static Matrix column(double[] v) {
        return new Matrix(v.length, 1, v.clone());
    }

    /** A diagonal matrix with the given diagonal. */
    public static Matrix diag(double[] d) {
        Matrix m = zeros(d.length, d.length);
        for (int i = 0; i < d.length; i++) {
            m.data[i + i * d.length] = d[i];
        }
        return m;
    }

    public int rows() {
        return rows;
    }

    public int cols() {
        return cols;
    }

    /** The backing column-major array (shared, not copied). */
    public double[] data() {
        return data;
    }

    public double get(int i, int j) {
        return data[i + j * rows];
    }

    public void set(int i, int j, double v) {
        data[i + j * rows] = v;
    }

    public void add(int i, int j, double v) {
        data[i + j * rows] += v;
    }

    public Matrix copy() {
        return new Matrix(rows, cols, data.clone());
    }

    /** A copy of row i. */
    public double[] row(int i) {
        double[] r = new double[cols];
        for (int j = 0; j < cols; j++) {
            r[j] = data[i + j * rows];
        }
        return r;
    }

    /** A copy of column j. */
    public double[] col(int j) {
        return Arrays.copyOfRange(data, j * rows, (j + 1) * rows);
    }

    /** Row-major copy, one array per row. */
    public double[][] toRowArrays() {
        double[][] out = new double[rows][];
        for (int i = 0; i < rows; i++) {
            out[i] = row(i);
        }
        return out;
    }

    /** The rows listed in {@code idx}, in that order. */
    public Matrix selectRows(int[] idx) {
        Matrix m = zeros(idx.length, cols);
        for (int j = 0; j < cols; j++) {
            int off = j * rows;
            int offOut = j * idx.length;
            for (int k = 0; k < idx.length; k++) {
                m.data[k + offOut] = data[idx[k] + off];
            }
        }
        return m;
    }

    /** Rows from (inclusive) to {@code to} (exclusive), a copy. */
    public Matrix rowRange(int from, int to) {
        if (from < 0 || to > rows || from > to) {
            throw new IllegalArgumentException("row range " + from + ".." + to + " of " + rows + " rows");
        }
        int r = to - from;
        Matrix out = zeros(r, cols);
        for (int j = 0; j < cols; j++) {
            System.arraycopy(data, j * rows + from, out.data, j * r, r);
        }
        return out;
    }

    /** The columns listed in {@code idx}, in that order. */
    public Matrix selectCols(int[] idx) {
        Matrix m = zeros(rows, idx.length);
        for (int k = 0; k < idx.length; k++) {
            System.arraycopy(data, idx[k] * rows, m.data, k * rows, rows);
        }
        return m;
    }

    public Matrix transpose() {
        Matrix t = zeros(cols, rows);
        for (int j = 0; j < cols; j++) {
            for (int i = 0; i < rows; i++) {
                t.data[j + i * cols] = data[i + j * rows];
            }
        }
        return t;
    }

    /** this · other, through BLAS dgemm. */
    public Matrix times(Matrix other) {
        return Linalg.gemm(1.0, this, false, other, false);
    }

    /** this · v. */
    public double[] times(double[] v) {
        return Linalg.gemv(this, false, v);
    }

    /** thisᵀ · v. */
    public double[] transposeTimes(double[] v) {
        return Linalg.gemv(this, true, v);
    }

    public Matrix plus(Matrix o) {
        checkSameShape(o);
        double[] d = data.clone();
        for (int k = 0; k < d.length; k++) {
            d[k] += o.data[k];
        }
        return new Matrix(rows, cols, d);
    }

    public Matrix minus(Matrix o) {
        checkSameShape(o);
        double[] d = data.clone();
        for (int k = 0; k < d.length; k++) {
            d[k] -= o.data[k];
        }
        return new Matrix(rows, cols, d);
    }

    public Matrix scale(double a) {
        double[] d = data.clone();
        for (int k = 0; k < d.length; k++) {
            d[k] *= a;
        }
        return new Matrix(rows, cols, d);
    }

    public void scaleInPlace(double a) {
        for (int k = 0; k < data.length; k++) {
            data[k] *= a;
        }
    }

    /** Adds {@code a} to every diagonal entry, in place. */
    public void addToDiagonal(double a) {
        int n = Math.min(rows, cols);
        for (int i = 0; i < n; i++) {
            data[i + i * rows] += a;
        }
    }

    public double[] diagonal() {
        int n = Math.min(rows, cols);
        double[] d = new double[n];
        for (int i = 0; i < n; i++) {
            d[i] = data[i + i * rows];
        }
        return d;
    }

    public double trace() {
        double t = 0;
        int n = Math.min(rows, cols);
        for (int i = 0; i < n; i++) {
            t += data[i + i * rows];
        }
        return t;
    }

    /** Frobenius norm. */
    public double normF() {
        double s = 0;
        for (double v : data) {
            s += v * v;
        }
        return Math.sqrt(s);
    }

    /** Largest absolute entry. */
    public double maxAbs() {
        double m = 0;
        for (double v : data) {
            m = Math.max(m, Math.abs(v));
        }
        return m;
    }

    /** Overwrites the strict lower triangle with the strict upper one (or vice versa) by averaging: (A + Aᵀ)/2. */
    public void symmetrizeInPlace() {
        requireSquare();
        for (int j = 0; j < cols; j++) {
            for (int i = j + 1; i < rows; i++) {
                double v = 0.5 * (data[i + j * rows] + data[j + i * rows]);
                data[i + j * rows] = v;
                data[j + i * rows] = v;
            }
        }
    }

    public boolean isSquare() {
        return rows == cols;
    }

    void requireSquare() {
        if (rows != cols) {
            throw new IllegalArgumentException("expected a square matrix, got " + rows + "x" + cols);
        }
    }

    private void checkSameShape(Matrix o) {
        if (o.rows != rows || o.cols != cols) {
            throw new IllegalArgumentException("shape mismatch: " + rows + "x" + cols + " vs " + o.rows + "x" + o.cols);
        }
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("Matrix " + rows + "x" + cols + "\n");
        int rmax = Math.min(rows, 8);
        int cmax = Math.min(cols, 8);
        for (int i = 0; i < rmax; i++) {
            for (int j = 0; j < cmax; j++) {
                sb.append(String.format("%12.5g", get(i, j)));
            }
            sb.append(cols > cmax ? " ...\n" : "\n");
        }
        if (rows > rmax) {
            sb.append("...\n");
        }
        return sb.toString();
    }
}
