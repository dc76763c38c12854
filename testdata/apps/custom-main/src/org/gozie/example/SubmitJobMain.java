package org.gozie.example;

import java.io.BufferedReader;
import java.io.FileWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The main class of gozie's custom-main example: a user's own main that
 * runs a MapReduce job, as Oozie's custom MapReduceMain subclasses do. It
 * submits the java action's configuration (the file named by the
 * oozie.action.conf.xml system property: the action's mapred.* settings and
 * the child tag in mapreduce.job.tags) as the job file with the cluster's
 * `mapred job -submit`, reports the job's application in the file named by
 * oozie.action.externalChildIDs, and polls `mapred job -status` until the
 * job ends. It exits 0 when the job SUCCEEDED, 1 when it FAILED or was
 * KILLED, with mapred's status when mapred itself fails, and 2 when it is
 * not run by a java action.
 */
public final class SubmitJobMain {
    private static final Pattern CREATED = Pattern.compile("Created job (job_\\S+)");
    private static final Pattern STATE = Pattern.compile("Job state: (\\S+)");
    private static final long POLL_MILLIS = 500;

    private SubmitJobMain() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        String jobFile = System.getProperty("oozie.action.conf.xml");
        if (jobFile == null) {
            System.err.println("SubmitJobMain: no oozie.action.conf.xml: run me from a java action");
            System.exit(2);
        }
        List<String> out = new ArrayList<>();
        int status = mapred(out, "job", "-submit", jobFile);
        String jobId = find(out, CREATED);
        if (status != 0 || jobId == null) {
            System.err.println("SubmitJobMain: mapred job -submit " + jobFile + " exited " + status);
            System.exit(status != 0 ? status : 1);
        }
        reportChild("application_" + jobId.substring("job_".length()));
        String state = waitFor(jobId);
        System.out.println("SubmitJobMain: job " + jobId + " ended " + state);
        System.exit("SUCCEEDED".equals(state) ? 0 : 1);
    }

    /** Polls the job's state until it is no longer PREP or RUNNING. */
    private static String waitFor(String jobId) throws IOException, InterruptedException {
        while (true) {
            List<String> out = new ArrayList<>();
            int status = mapred(out, "job", "-status", jobId);
            String state = find(out, STATE);
            if (status != 0 || state == null) {
                System.err.println("SubmitJobMain: mapred job -status " + jobId + " exited " + status);
                System.exit(status != 0 ? status : 1);
            }
            if (!"PREP".equals(state) && !"RUNNING".equals(state)) {
                return state;
            }
            Thread.sleep(POLL_MILLIS);
        }
    }

    /** Runs the cluster's mapred, echoing and collecting its stdout. */
    private static int mapred(List<String> out, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add("mapred");
        for (String a : args) {
            cmd.add(a);
        }
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                System.out.println(line);
                out.add(line);
            }
        }
        return p.waitFor();
    }

    private static String find(List<String> lines, Pattern p) {
        for (String line : lines) {
            Matcher m = p.matcher(line);
            if (m.find()) {
                return m.group(1);
            }
        }
        return null;
    }

    /** Names the job's application as the action's child. */
    private static void reportChild(String appId) throws IOException {
        String file = System.getProperty("oozie.action.externalChildIDs");
        if (file == null) {
            return;
        }
        try (Writer w = new FileWriter(file, StandardCharsets.UTF_8)) {
            w.write(appId);
        }
    }
}
