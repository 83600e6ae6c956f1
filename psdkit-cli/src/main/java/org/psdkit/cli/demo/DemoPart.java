package org.psdkit.cli.demo;

import java.util.Map;

/**
 * One part of {@code psdkit demo}. To add a part: implement this interface and add {@code new YourPart()} to
 * {@link DemoCommand#PARTS}. A part must finish in a few seconds, print its narrative through
 * {@link DemoContext#say}, write its plots with {@link DemoContext#png}, and return its headline numbers.
 */
public interface DemoPart {

    /** Short id used by {@code demo --part ID} and in file names ({@code demo-ID.png}). */
    String id();

    /** One-line title for the summary. */
    String title();

    /** Runs the part; returns ordered headline results (shown in the summary and in {@code --json}). */
    Map<String, Object> run(DemoContext ctx) throws Exception;
}
