package datalake.query;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The routes of the API, all GET. Templates are written as the datalake client calls them (and as
 * docs/openapi.yaml documents them); a trailing slash is optional when matching.
 */
enum Route {
    ARCHIVE("/v0/archive/"),
    ENVIRONMENT("/v0/environment/"),
    FILES("/v0/archive/files/"),
    FILE_METADATA("/v0/archive/files/{id}/metadata"),
    FILE_DATA("/v0/archive/files/{id}/data"),
    LATEST("/v0/archive/latest/{what}/{where}"),
    LATEST_DATA("/v0/archive/latest/{what}/{where}/data"),
    FEEDS("/v0/archive/feeds/"),
    COVERAGE("/v0/archive/coverage/");

    static final String METHOD = "GET";

    private final String template;
    @SuppressWarnings("ImmutableEnumChecker") // private, filled in the constructor, never written after
    private final String[] segments;

    Route(String template) {
        this.template = template;
        this.segments = split(template);
    }

    String template() {
        return template;
    }

    /** A route and the values of its {@code {…}} segments, in order, percent-decoded. */
    record Match(Route route, List<String> parameters) {
        String parameter(int index) {
            return parameters.get(index);
        }
    }

    static Optional<Match> match(String path) {
        String[] parts = split(path);
        for (Route route : values()) {
            List<String> parameters = route.matchSegments(parts);
            if (parameters != null) {
                return Optional.of(new Match(route, parameters));
            }
        }
        return Optional.empty();
    }

    private List<String> matchSegments(String[] parts) {
        if (parts.length != segments.length) {
            return null;
        }
        List<String> parameters = new ArrayList<>(2);
        for (int i = 0; i < parts.length; i++) {
            String value = ApiRequest.decode(parts[i], false);
            if (segments[i].startsWith("{")) {
                if (value.isEmpty()) {
                    return null;
                }
                parameters.add(value);
            } else if (!segments[i].equals(value)) {
                return null;
            }
        }
        return parameters;
    }

    /** "/a/b/" and "/a/b" → [a, b]; inner empty segments ("/a//b") are kept, so they match nothing. */
    private static String[] split(String path) {
        String p = path.startsWith("/") ? path.substring(1) : path;
        int end = p.length();
        while (end > 0 && p.charAt(end - 1) == '/') {
            end--;
        }
        p = p.substring(0, end);
        return p.isEmpty() ? new String[0] : p.split("/", -1);
    }
}
