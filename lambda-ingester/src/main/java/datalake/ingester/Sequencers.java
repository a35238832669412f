package datalake.ingester;

import java.util.Comparator;

/**
 * S3's {@code sequencer}: hexadecimal text whose greater value is the later event of one key.
 * Values may differ in length; compare after right-padding the shorter with zeros (S3's rule).
 */
final class Sequencers {
    /** Nulls (emulators omit the field) compare equal to everything, so message order decides. */
    static final Comparator<String> ORDER = Sequencers::compare;

    private Sequencers() {
    }

    static int compare(String a, String b) {
        if (a == null || b == null) {
            return 0;
        }
        int length = Math.max(a.length(), b.length());
        for (int i = 0; i < length; i++) {
            int x = i < a.length() ? Character.digit(a.charAt(i), 16) : 0;
            int y = i < b.length() ? Character.digit(b.charAt(i), 16) : 0;
            if (x != y) {
                return Integer.compare(x, y);
            }
        }
        return 0;
    }
}
