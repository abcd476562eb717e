package com.editlock.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The date and commit a figure comes from, printed beside it by every long run and benchmark: a
 * figure is quoted with the run that produced it, never as current on its own. The commit is the
 * checkout's {@code HEAD}; code or a build that differs from it says so, so that a figure from
 * uncommitted code is never passed off as a commit's.
 */
public final class RunStamp {

    private RunStamp() {}

    /** For example {@code 2026-12-04 05:10 UTC, commit a29be06}. */
    public static String now() {
        return ZonedDateTime.now(ZoneOffset.UTC)
                        .format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'", Locale.ROOT))
                + ", "
                + commit();
    }

    /**
     * {@code commit a29be06}, with {@code and uncommitted changes} when the code or the build
     * differ from it (the documents may be written while a long run goes on).
     */
    public static String commit() {
        String head = git("rev-parse", "--short", "HEAD");
        if (head == null || head.isBlank()) {
            return "commit unknown (no git checkout)";
        }
        String changes = git("status", "--porcelain", "--", "src", "pom.xml", ".mvn");
        return "commit "
                + head.strip()
                + (changes == null || changes.isBlank() ? "" : " and uncommitted changes");
    }

    private static String git(String... args) {
        String[] command = new String[args.length + 1];
        command[0] = "git";
        System.arraycopy(args, 0, command, 1, args.length);
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                return null;
            }
            return new String(out, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
