package org.gozie.example;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Properties;

/**
 * The main class of gozie's java-main example. It reports the arguments it
 * was given (argc, arg.0, arg.1, ...) in the properties file that the java
 * action names in the oozie.action.output.properties system property, which
 * becomes the action's data with capture-output. Run by hand, it prints the
 * report instead. Without arguments it exits with status 2.
 */
public final class ArgsReport {
    private ArgsReport() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length == 0) {
            System.err.println("usage: ArgsReport ARG...");
            System.exit(2);
        }
        Properties report = new Properties();
        report.setProperty("argc", Integer.toString(args.length));
        for (int i = 0; i < args.length; i++) {
            report.setProperty("arg." + i, args[i]);
        }
        String file = System.getProperty("oozie.action.output.properties");
        if (file == null) {
            report.store(System.out, "ArgsReport");
            return;
        }
        try (OutputStream out = new FileOutputStream(file)) {
            report.store(out, "ArgsReport");
        }
        System.out.println("ArgsReport: reported " + args.length + " arguments");
    }
}
