package org.psdkit.cli;

/**
 * The SVM family's entries in {@link ModelKinds} ({@code svm}, {@code tk-svm}, {@code simplemkl}): their files are
 * read by the library ({@code org.psdkit.io.SvmCodec} through {@link org.psdkit.io.ModelIO}).
 */
final class SvmModels {

    private SvmModels() {
    }

    /** The registry entry for one of the three types; loading goes through the library's codec. */
    static final class Kind implements ModelKind {
        private final String type;
        private final String description;

        Kind(String type, String description) {
            this.type = type;
            this.description = description;
        }

        @Override
        public String type() {
            return type;
        }

        @Override
        public String description() {
            return description;
        }
    }
}
