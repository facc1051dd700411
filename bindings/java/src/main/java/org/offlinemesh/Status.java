package org.offlinemesh;

import java.nio.charset.StandardCharsets;

/** The status codes of liboffline_mesh ({@code om_status}), with their pinned values. */
public enum Status {
    /** Success. */
    OK(om_status.OM_OK),
    /** A bad value or an inconsistent combination. */
    INVALID_ARGUMENT(om_status.OM_ERR_INVALID_ARGUMENT),
    /** A number beyond its limits: a rank or coordinate outside the mesh, a size over 2^31-1. */
    OUT_OF_RANGE(om_status.OM_ERR_OUT_OF_RANGE),
    /** Malformed YAML, JSON or spec text, or a value of the wrong type in it. */
    PARSE(om_status.OM_ERR_PARSE),
    /** A file could not be opened or read (reported as {@link java.io.IOException}). */
    IO(om_status.OM_ERR_IO),
    /** An allocation failed (reported as {@link OutOfMemoryError}). */
    NO_MEMORY(om_status.OM_ERR_NO_MEMORY),
    /** Mesh names and shape differ in length. */
    LENGTH_MISMATCH(om_status.OM_ERR_LENGTH_MISMATCH),
    /** An axis name appears twice. */
    DUPLICATE_NAME(om_status.OM_ERR_DUPLICATE_NAME),
    /** An axis name is empty. */
    EMPTY_NAME(om_status.OM_ERR_EMPTY_NAME),
    /** An axis size is below 1. */
    BAD_SIZE(om_status.OM_ERR_BAD_SIZE),
    /** The product of the sizes exceeds 2^31-1. */
    MESH_TOO_LARGE(om_status.OM_ERR_MESH_TOO_LARGE),
    /** An axis name is not valid text (for instance it holds a NUL character). */
    INVALID_NAME(om_status.OM_ERR_INVALID_NAME),
    /** A result buffer was too small (never seen through this binding). */
    BUFFER_TOO_SMALL(om_status.OM_ERR_BUFFER_TOO_SMALL),
    /** An axis named in an axis set is not in the mesh. */
    UNKNOWN_AXIS(om_status.OM_ERR_UNKNOWN_AXIS),
    /** A code this binding does not know (a newer library). */
    UNKNOWN(-1);

    private final int code;

    Status(int code) {
        this.code = code;
    }

    /** The C library's numeric value of this status ({@code -1} for {@link #UNKNOWN}). */
    public int code() {
        return code;
    }

    /** The library's English name of this status, e.g. {@code "invalid argument"}. */
    public String description() {
        NativeLibrary.load();
        return new String(OfflineMeshNative.omStatusString(code), StandardCharsets.UTF_8);
    }

    /** The C identifier of this status, e.g. {@code "OM_ERR_PARSE"}. */
    public String cName() {
        NativeLibrary.load();
        return new String(OfflineMeshNative.omStatusName(code), StandardCharsets.UTF_8);
    }

    /** The status with this numeric value, {@link #UNKNOWN} when there is none. */
    public static Status fromCode(int code) {
        for (Status s : values()) {
            if (s.code == code && s != UNKNOWN) {
                return s;
            }
        }
        return UNKNOWN;
    }
}
