package org.psdkit.cli.fit;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code psdkit fit <model> ...}: one subcommand per model type, added from {@link FitCommands} (register new model
 * types there).
 */
@Command(name = "fit", description = "Fit a model and write it to a JSON model file.")
public final class FitCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "fit: name a model, one of "
                + spec.subcommands().keySet());
    }
}
