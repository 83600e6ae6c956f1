package org.psdkit.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code psdkit reproduce <experiment>}: one subcommand per figure or table of the papers. */
@Command(name = "reproduce", description = "Reproduce a figure or table of the source papers.",
        subcommands = {
            ReproduceTkTable1Command.class,
            ReproduceTkFiguresCommands.Surfaces.class,
            ReproduceTkFiguresCommands.Scaling.class,
            ReproduceExample2Command.class,
            ReproduceConeCommands.Hetero.class,
            ReproduceConeCommands.Quantile.class,
            ReproduceKernelSosCommand.class,
            ReproduceDensity1dCommand.class,
            ReproduceDensity10dCommand.class,
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
