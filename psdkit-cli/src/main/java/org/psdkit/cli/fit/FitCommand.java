package org.psdkit.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code psdkit fit <model> ...}: one subcommand per model type. Add new model types to {@code subcommands}. */
@Command(name = "fit", description = "Fit a model and write it to a JSON model file.",
        subcommands = {
            FitRidgeCommand.class,
            FitKrrCommand.class,
            FitPsdRegressionCommand.class,
            FitBaselineCommand.Ncm.class,
            FitBaselineCommand.Pnm.class,
            FitBaselineCommand.Glm.class,
            FitKernelSosCommand.class,
            FitDensityCommands.Psd.class,
            FitDensityCommands.Ncm.class,
            FitDensityCommands.Pnm.class,
            FitDensityCommands.Glm.class,
            FitDensityCommands.KdeCmd.class,
            FitConeCommands.Hetero.class,
            FitConeCommands.Quantile.class,
            FitSvmCommands.Svm.class,
            FitSvmCommands.TkSvm.class,
            FitSvmCommands.SimpleMkl.class,
            FitSvrCommand.class,
        })
public final class FitCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "fit: name a model, one of "
                + spec.subcommands().keySet());
    }
}
