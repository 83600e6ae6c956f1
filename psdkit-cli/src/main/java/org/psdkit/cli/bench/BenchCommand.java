package org.psdkit.cli.bench;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code psdkit bench <what>}: benchmarks that print timings and ratios against a baseline measured in the same
 * run. Add new benchmarks to {@code subcommands}.
 */
@Command(name = "bench", description = "Run a benchmark; prints times and ratios against an in-run baseline.",
        subcommands = {
            BenchColdCommand.class,
            BenchDensityCommand.class,
            BenchTkCommand.class,
            BenchKrrCommand.class,
            BenchKrrLooCommand.class,
            BenchKrrAutoCommand.class,
            BenchKrrScaleCommand.class,
            BenchNuCommand.class,
            BenchPsdScaleCommand.class,
            LinalgBenchCommand.class,
            BenchPsdCommand.class,
            BenchPsdSampleCommand.class,
            BenchSdpCommand.class,
            BenchKernelSosCommand.class,
            BenchSvmCommand.class,
            BenchSparkCommand.class,
        })
public final class BenchCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "bench: name a benchmark, one of "
                + spec.subcommands().keySet());
    }
}
