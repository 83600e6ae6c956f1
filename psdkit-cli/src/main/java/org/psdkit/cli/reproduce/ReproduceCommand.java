package org.psdkit.cli.reproduce;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code psdkit reproduce <experiment>}: one subcommand per figure or table of the papers. */
@Command(name = "reproduce", description = "Reproduce a figure or table of the source papers.",
        subcommands = {
            ReproTkTable1Command.class,
            ReproTkFiguresCommands.Surfaces.class,
            ReproTkFiguresCommands.Scaling.class,
            ReproExample2Command.class,
            ReproConeCommands.Hetero.class,
            ReproConeCommands.Quantile.class,
            ReproKernelSosCommand.class,
            ReproDensity1dCommand.class,
            ReproDensity10dCommand.class,
        })
public final class ReproduceCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "reproduce: name an experiment, one of "
                + spec.subcommands().keySet());
    }
}
