package datalake.ingester;

/**
 * S3's {@code sequencer}: hexadecimal text whose greater value is the later event of one key.
 * Values may differ in length; compare after right-padding the shorter with zeros (S3's rule).
 */
final class Sequencers {
    private Sequencers() {
    }

    /**
     * A total order of events of one key: a present sequencer is later than a missing one (emulators and
     * some senders omit it), and two missing ones are equal, so that message order decides between them.
     * Missing sequencers that compared equal to everything made the order depend on the batch's order:
     * of {@code 05}, none, {@code 03}, the last owned the object.
     */
    static int compare(String a, String b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : -1) : 1;
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
