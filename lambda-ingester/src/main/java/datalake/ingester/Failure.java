package datalake.ingester;

/**
 * Why a message (or one object of it) was not ingested: a kind and one sentence a user can act on.
 * The sentence never contains metadata values.
 */
public record Failure(ErrorKind kind, String message) {
    public Failure {
        if (kind == null || message == null) {
            throw new IllegalArgumentException("a failure needs a kind and a message");
        }
    }

    public boolean permanent() {
        return kind.permanent();
    }
}
