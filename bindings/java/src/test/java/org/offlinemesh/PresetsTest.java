package org.offlinemesh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.offlinemesh.OfflineMeshTest.assertRejected;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Framework presets: views, named groups, rules and the check verdict. */
class PresetsTest {
    @Test
    void deepspeedVectorCase() {
        // tests/vectors/deepspeed.json, W 8, tp 2, ep 2, E+D: DeepSpeed's group order.
        String doc = Presets.views("deepspeed",
                List.of("world_size=8", "tensor_parallel_size_=2", "expert_parallel_size_=2",
                        "pipeline_parallel_size_=1", "use_data_before_expert_parallel_=false"), 0);
        assertEquals("{\"groups\":{\"ep\":[[0,2],[4,6],[1,3],[5,7]],\"expt_dp\":[[0,4],[2,6],[1,5],[3,7]]},"
                + "\"views\":{\"expert\":{\"coords\":[[0,0,0,0],[0,0,0,1],[0,0,1,0],[0,0,1,1],"
                + "[0,1,0,0],[0,1,0,1],[0,1,1,0],[0,1,1,1]],\"dim_names\":[\"pp\",\"edp\",\"ep\",\"tp\"],"
                + "\"layout\":[[[1,8]],[[2,4]],[[2,2]],[[2,1]]],\"shape\":[1,2,2,2]}}}", doc);
    }

    @Test
    void megatronDefaultsKeepExpertTensorParallelAtTp() {
        String doc = Presets.views("megatron", List.of("tensor_model_parallel_size=2",
                "expert_model_parallel_size=2"), 8);
        // etp = tp = 2: EP at stride 2, not the experts layout's consecutive ranks.
        assertTrue(doc.contains("\"ep\":[[0,2],[1,3],[4,6],[5,7]]"), doc);
        assertTrue(doc.contains("\"order\":\"tp-cp-ep-dp-pp\""), doc);
    }

    @Test
    void frameworkRulesAndUnknownKeys() {
        assertRejected(Status.INVALID_ARGUMENT,
                () -> Presets.views("megatron", List.of("tensor_model_parallel_size=3"), 8),
                "world_size (8) is not divisible by 3");
        assertRejected(Status.INVALID_ARGUMENT,
                () -> Presets.views("megatron", List.of("tp=2"), 8),
                "did you mean \"tensor_model_parallel_size\"?");
        assertRejected(Status.INVALID_ARGUMENT, () -> Presets.views("titan", List.of(), 8),
                "unknown preset");
        assertRejected(Status.INVALID_ARGUMENT, () -> Presets.views("torchtitan", List.of("tp=\0"), 8),
                "NUL");
    }

    @Test
    void checkListsEveryViolation() {
        String verdict = Presets.check("hyper-parallel", List.of("accelerator.tp_size=2",
                "fsdp_config.dp_shard_size=3", "accelerator.ep_size=2",
                "fsdp_config.edp_shard_size=3"), 8);
        assertEquals("{\"ok\":false,\"preset\":\"hyper-parallel\",\"violations\":["
                + "\"DP+CP size 4 is not divisible by FSDP shard size 3\","
                + "\"expert data-parallel size (4) must be divisible by edp_shard_size (3)\"]}", verdict);
    }

    @Test
    void hyperParallelYaml(@TempDir Path dir) throws IOException {
        Path yaml = dir.resolve("train.yaml");
        Files.writeString(yaml, "accelerator: {tp_size: 2, ep_size: 2}\nfsdp_config: {dp_shard_size: 2}\n");
        String doc = Presets.loadViews(yaml, 8);
        assertTrue(doc.contains("\"fsdp_moe\":{"), doc);
        assertEquals(doc, Presets.views("hyper-parallel", List.of("accelerator.tp_size=2",
                "accelerator.ep_size=2", "fsdp_config.dp_shard_size=2"), 8));
    }
}
