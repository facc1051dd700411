package org.offlinemesh;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/** UTF-8 conversions at the native boundary, and argument checks. */
final class Text {
    private Text() {
    }

    /**
     * UTF-8 bytes of a string that C reads up to its first NUL: a NUL inside
     * would silently cut the value, so it is refused.
     */
    static byte[] cString(String value, String parameter, Status status) {
        Objects.requireNonNull(value, parameter);
        if (value.indexOf('\0') >= 0) {
            throw new OfflineMeshException(status, parameter + " contains a NUL character");
        }
        return utf8(value, parameter, status);
    }

    /** UTF-8 bytes of a whole document (C reads it with its length). */
    static byte[] document(String value, String parameter) {
        Objects.requireNonNull(value, parameter);
        return utf8(value, parameter, Status.PARSE);
    }

    /**
     * UTF-8 bytes of a string. An unpaired surrogate has no UTF-8 form
     * (String.getBytes would silently write '?'), so it is refused.
     */
    static byte[] utf8(String value, String parameter, Status status) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < value.length()
                    && Character.isLowSurrogate(value.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new OfflineMeshException(status, parameter
                        + " holds an unpaired surrogate at index " + i + " (not valid Unicode)");
            }
        }
        return value.getBytes(StandardCharsets.UTF_8);
    }

    static String decode(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    /** Runs a native call that fills a {@code char **out} holder; its string, decoded. */
    static String string(Consumer<byte[][]> call) {
        NativeLibrary.load();
        byte[][] out = new byte[1][];
        call.accept(out);
        return decode(out[0]);
    }

    /** UTF-8 axis names for an axis set (OM_STRINGS); null items named. */
    static byte[][] axes(String[] axes) {
        Objects.requireNonNull(axes, "axes");
        byte[][] out = new byte[axes.length][];
        for (int i = 0; i < axes.length; i++) {
            out[i] = cString(Objects.requireNonNull(axes[i], "axes[" + i + "]"), "axes[" + i + "]",
                    Status.INVALID_ARGUMENT);
        }
        return out;
    }

    /** Checks a list and its elements for null, naming the parameter. */
    static <T> List<T> requireNoNulls(List<T> list, String parameter) {
        Objects.requireNonNull(list, parameter);
        for (int i = 0; i < list.size(); i++) {
            Objects.requireNonNull(list.get(i), parameter + "[" + i + "]");
        }
        return list;
    }
}
