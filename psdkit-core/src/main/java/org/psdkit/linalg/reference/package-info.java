/**
 * Not API (exported to {@code org.psdkit.bench} only): {@link org.psdkit.linalg.reference.ReferenceLinalg}, plain-Java
 * implementations of the operations of {@link org.psdkit.linalg.Linalg} that the native back end is tested against
 * and that {@code psdkit bench linalg} times it against.
 */
package org.psdkit.linalg.reference;
