package org.gozie.example;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Properties;
import java.util.StringJoiner;

/**
 * The main class of gozie's datelist-java-main example. Given a start and
 * an end time (yyyy-MM-ddTHH:mmZ, UTC), a frequency, its unit (MINUTES,
 * HOURS, DAYS, MONTHS) and a time zone, it lists the times from the start,
 * one frequency apart in the time zone's wall-clock time, up to but not
 * including the end, and reports them comma-separated as "datelist" in the
 * properties file the java action names in the oozie.action.output.properties
 * system property (the action's data with capture-output). Wrong arguments
 * exit with status 2.
 */
public final class DateList {
    private static final DateTimeFormatter UTC_MINUTES = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm'Z'");

    private DateList() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 5) {
            System.err.println("usage: DateList START END FREQUENCY MINUTES|HOURS|DAYS|MONTHS TIMEZONE");
            System.exit(2);
        }
        ZoneId zone = ZoneId.of(args[4]);
        ZonedDateTime start = parse(args[0]).atZone(zone);
        Instant end = parse(args[1]);
        int frequency = Integer.parseInt(args[2]);
        ChronoUnit unit = ChronoUnit.valueOf(args[3]);
        if (frequency <= 0) {
            System.err.println("DateList: the frequency must be positive: " + frequency);
            System.exit(2);
        }
        StringJoiner dates = new StringJoiner(",");
        for (long i = 0; ; i++) {
            Instant t = start.plus(i * frequency, unit).toInstant();
            if (!t.isBefore(end)) {
                break;
            }
            dates.add(UTC_MINUTES.format(t.atZone(ZoneId.of("UTC"))));
        }
        Properties report = new Properties();
        report.setProperty("datelist", dates.toString());
        String file = System.getProperty("oozie.action.output.properties");
        if (file == null) {
            report.store(System.out, "DateList");
            return;
        }
        try (OutputStream out = new FileOutputStream(file)) {
            report.store(out, "DateList");
        }
        System.out.println("DateList: " + dates);
    }

    private static Instant parse(String s) {
        return ZonedDateTime.parse(s, UTC_MINUTES.withZone(ZoneId.of("UTC"))).toInstant();
    }
}
