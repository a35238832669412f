package datalake.emulators;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * HTTP/1.1 on the wire, as much as a local API Gateway needs: a request line, headers and a
 * Content-Length body in; a status, headers and a body out, written in one piece. The request target is
 * kept as sent ({@link WireRequest#rawPath()}, {@link WireRequest#rawQuery()}): API Gateway hands the
 * function the raw path and query, and a malformed escape is the function's to judge, not the server's.
 */
final class HttpWire {
    /** Longest request line and longest header section read; API Gateway's limits are of this order. */
    static final int MAX_LINE = 16 * 1024;
    static final int MAX_HEADERS = 64 * 1024;
    /** API Gateway's payload limit. */
    static final int MAX_BODY = 10 * 1024 * 1024;
    private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.RFC_1123_DATE_TIME;

    private HttpWire() {
    }

    /** One request as sent; {@code headers} keep their names' case and order. */
    @SuppressWarnings("ArrayRecordComponent") // read once by the server, never shared
    record WireRequest(String method, String rawPath, String rawQuery, String protocol,
                       Map<String, List<String>> headers, byte[] body) {
        Optional<String> header(String name) {
            for (Map.Entry<String, List<String>> header : headers.entrySet()) {
                if (header.getKey().equalsIgnoreCase(name)) {
                    return Optional.of(String.join(",", header.getValue()));
                }
            }
            return Optional.empty();
        }

        /** HTTP/1.1 keeps the connection unless told to close; HTTP/1.0 closes it unless told to keep it. */
        boolean keepAlive() {
            String connection = header("connection").orElse("").toLowerCase(Locale.ROOT);
            return protocol.equals("HTTP/1.1") ? !connection.contains("close") : connection.contains("keep-alive");
        }
    }

    /** A request the server answers itself, with this status and API Gateway's JSON message, then closes the connection. */
    static final class MalformedRequestException extends Exception {
        private static final long serialVersionUID = 1L;
        private final int status;

        MalformedRequestException(int status, String message) {
            super(message);
            this.status = status;
        }

        int status() {
            return status;
        }
    }

    /**
     * Reads the next request, or empty when the client closed the connection between requests. Answers
     * {@code Expect: 100-continue} on {@code out} before reading the body.
     */
    static Optional<WireRequest> read(InputStream in, OutputStream out) throws IOException, MalformedRequestException {
        String line;
        do {
            line = line(in, MAX_LINE, 414, "Request-URI Too Long");
            if (line == null) {
                return Optional.empty();
            }
        } while (line.isEmpty()); // RFC 9112: a server should ignore empty lines before a request
        String[] parts = line.split(" ", -1);
        if (parts.length != 3 || parts[0].isEmpty() || parts[1].isEmpty()) {
            throw new MalformedRequestException(400, "Bad Request");
        }
        if (!parts[2].equals("HTTP/1.1") && !parts[2].equals("HTTP/1.0")) {
            throw new MalformedRequestException(505, "HTTP Version Not Supported");
        }
        String target = originForm(parts[1]);
        int fragment = target.indexOf('#');
        if (fragment >= 0) {
            target = target.substring(0, fragment);
        }
        int question = target.indexOf('?');
        String rawPath = question < 0 ? target : target.substring(0, question);
        String rawQuery = question < 0 ? "" : target.substring(question + 1);

        Map<String, List<String>> headers = headers(in);
        WireRequest head = new WireRequest(parts[0], rawPath, rawQuery, parts[2], headers, new byte[0]);
        if (head.header("transfer-encoding").isPresent()) {
            throw new MalformedRequestException(411, "Length Required");
        }
        List<String> lengths = headers.entrySet().stream().filter(h -> h.getKey().equalsIgnoreCase("content-length"))
                .flatMap(h -> h.getValue().stream()).toList();
        long length = 0;
        if (!lengths.isEmpty()) {
            if (lengths.size() > 1 || !lengths.get(0).strip().matches("[0-9]{1,10}")) {
                throw new MalformedRequestException(400, "Bad Request");
            }
            length = Long.parseLong(lengths.get(0).strip());
        }
        if (length > MAX_BODY) {
            throw new MalformedRequestException(413, "Request Entity Too Large");
        }
        if (length > 0 && head.header("expect").orElse("").equalsIgnoreCase("100-continue")) {
            out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
        }
        byte[] body = in.readNBytes((int) length);
        if (body.length < length) {
            return Optional.empty();
        }
        return Optional.of(new WireRequest(parts[0], rawPath, rawQuery, parts[2], headers, body));
    }

    /** {@code /path?query} of an origin-form target, or of an absolute-form one ({@code http://host/path?query}). */
    private static String originForm(String target) throws MalformedRequestException {
        if (target.startsWith("/")) {
            return target;
        }
        String lower = target.toLowerCase(Locale.ROOT);
        if (lower.startsWith("http://") || lower.startsWith("https://")) {
            int slash = target.indexOf('/', target.indexOf("//") + 2);
            return slash < 0 ? "/" : target.substring(slash);
        }
        throw new MalformedRequestException(400, "Bad Request");
    }

    private static Map<String, List<String>> headers(InputStream in) throws IOException, MalformedRequestException {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        int total = 0;
        for (String line = line(in, MAX_LINE, 431, "Request Header Fields Too Large"); ;
             line = line(in, MAX_LINE, 431, "Request Header Fields Too Large")) {
            if (line == null) {
                throw new MalformedRequestException(400, "Bad Request");
            }
            if (line.isEmpty()) {
                return headers;
            }
            total += line.length() + 2;
            if (total > MAX_HEADERS) {
                throw new MalformedRequestException(431, "Request Header Fields Too Large");
            }
            int colon = line.indexOf(':');
            if (colon <= 0 || !line.substring(0, colon).chars().allMatch(HttpWire::isTokenChar)) {
                // No name, whitespace before the colon, or an obsolete folded line (RFC 9112: reject).
                throw new MalformedRequestException(400, "Bad Request");
            }
            // Find the entry whatever the case of the name, as HTTP header names are compared.
            String name = line.substring(0, colon);
            String existing = headers.keySet().stream().filter(k -> k.equalsIgnoreCase(name)).findFirst().orElse(name);
            headers.computeIfAbsent(existing, k -> new ArrayList<>()).add(line.substring(colon + 1).strip());
        }
    }

    private static boolean isTokenChar(int c) {
        return c > 32 && c < 127 && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0;
    }

    /** A line without its CRLF (or LF), as UTF-8; null at the end of the stream before any byte. */
    private static String line(InputStream in, int max, int tooLong, String tooLongMessage)
            throws IOException, MalformedRequestException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(128);
        for (int b = in.read(); ; b = in.read()) {
            if (b < 0) {
                if (line.size() == 0) {
                    return null;
                }
                throw new MalformedRequestException(400, "Bad Request");
            }
            if (b == '\n') {
                byte[] bytes = line.toByteArray();
                int length = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
                return new String(bytes, 0, length, StandardCharsets.UTF_8);
            }
            if (line.size() >= max) {
                throw new MalformedRequestException(tooLong, tooLongMessage);
            }
            line.write(b);
        }
    }

    /**
     * Writes a whole response in one write (with TCP_NODELAY on the socket, nothing waits for an ACK).
     * Headers are written as given; {@code content-length}, {@code date} and, when closing,
     * {@code connection: close} are added. A HEAD request, 204 and 304 get no body.
     */
    static void write(OutputStream out, int status, List<Map.Entry<String, String>> headers, byte[] body,
            boolean head, boolean close) throws IOException {
        StringBuilder text = new StringBuilder(256);
        text.append("HTTP/1.1 ").append(status).append(' ').append(reason(status)).append("\r\n");
        for (Map.Entry<String, String> header : headers) {
            if (!header.getKey().equalsIgnoreCase("content-length") && !header.getKey().equalsIgnoreCase("connection")) {
                text.append(header.getKey()).append(": ").append(header.getValue().replaceAll("[\r\n]", " ")).append("\r\n");
            }
        }
        boolean noBody = status == 204 || status == 304 || (status >= 100 && status < 200);
        if (!noBody) {
            text.append("content-length: ").append(body.length).append("\r\n");
        }
        text.append("date: ").append(HTTP_DATE.format(ZonedDateTime.now(ZoneOffset.UTC))).append("\r\n");
        if (close) {
            text.append("connection: close\r\n");
        }
        text.append("\r\n");
        byte[] start = text.toString().getBytes(StandardCharsets.UTF_8);
        boolean withBody = !noBody && !head;
        byte[] response = new byte[start.length + (withBody ? body.length : 0)];
        System.arraycopy(start, 0, response, 0, start.length);
        if (withBody) {
            System.arraycopy(body, 0, response, start.length, body.length);
        }
        out.write(response);
        out.flush();
    }

    private static String reason(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 201 -> "Created";
            case 204 -> "No Content";
            case 301 -> "Moved Permanently";
            case 302 -> "Found";
            case 304 -> "Not Modified";
            case 400 -> "Bad Request";
            case 401 -> "Unauthorized";
            case 403 -> "Forbidden";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 411 -> "Length Required";
            case 413 -> "Request Entity Too Large";
            case 414 -> "Request-URI Too Long";
            case 429 -> "Too Many Requests";
            case 431 -> "Request Header Fields Too Large";
            case 500 -> "Internal Server Error";
            case 502 -> "Bad Gateway";
            case 503 -> "Service Unavailable";
            case 504 -> "Gateway Timeout";
            case 505 -> "HTTP Version Not Supported";
            default -> "";
        };
    }
}
