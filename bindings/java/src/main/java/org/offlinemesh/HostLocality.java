package org.offlinemesh;

/**
 * Host locality of the groups over some axes when consecutive ranks share a
 * host ({@link OfflineMesh#locality(long, String...)}).
 *
 * @param groupCount number of groups
 * @param localGroups how many of them stay inside one host
 * @param maxHosts the most hosts any one group spans
 */
public record HostLocality(long groupCount, long localGroups, long maxHosts) {
    /** True when every group stays inside one host. */
    public boolean allLocal() {
        return localGroups == groupCount;
    }
}
