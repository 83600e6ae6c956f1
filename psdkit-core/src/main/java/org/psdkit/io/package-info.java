/**
 * Saving and loading fitted models of every family as versioned JSON files: {@code ModelIO.save(model, path)}
 * (atomic write) and {@code ModelIO.load(path)} for any model type ({@link org.psdkit.io.ModelIO}), one
 * {@link org.psdkit.io.ModelCodec} per type, the file envelope {@link org.psdkit.io.ModelFile}. The format is
 * {@code docs/model-format.md}; {@code examples/.../LoadAnyModel.java} loads and predicts any model file.
 */
package org.psdkit.io;
