package org.gozie.example;

import java.io.File;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;

/**
 * FileCopy copies the file named by its first argument into the directory
 * named by its second, as part-00000 beside an empty _SUCCESS marker. It
 * reaches HDFS through the cluster's hadoop command, which every node of a
 * cluster has, so that it needs no Spark or Hadoop library.
 */
public class FileCopy {
    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: FileCopy <input file> <output directory>, got " + Arrays.toString(args));
        }
        File local = new File("file-copy-" + System.nanoTime() + ".txt");
        try {
            hadoop("fs", "-get", args[0], local.getPath());
            hadoop("fs", "-mkdir", "-p", args[1]);
            hadoop("fs", "-put", local.getPath(), args[1] + "/part-00000");
            hadoop("fs", "-touchz", args[1] + "/_SUCCESS");
        } finally {
            local.delete();
        }
        System.out.println("copied " + args[0] + " to " + args[1]);
    }

    private static void hadoop(String... args) throws IOException, InterruptedException {
        List<String> cmd = new java.util.ArrayList<>();
        cmd.add("hadoop");
        cmd.addAll(Arrays.asList(args));
        Process p = new ProcessBuilder(cmd).inheritIO().start();
        int code = p.waitFor();
        if (code != 0) {
            throw new IOException("hadoop " + String.join(" ", args) + " exited with code " + code);
        }
    }
}
