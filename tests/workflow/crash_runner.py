"""A workflow runner process for the crash tests: `python crash_runner.py DATA_DIR WF_DIR URL`
starts a run (or, with `resume RUN_ID`, resumes one; with `answer RUN_ID STEP JSON`, answers
a step's delegated call and goes on), printing `ready` once imported and
`done STATUS` at the end. The tests kill it with SIGKILL at random moments."""
import json
import sys


def main(argv):
    data_dir, wf_dir, base = argv[:3]
    from boruna.runtime.live import HandlerConfig
    from boruna.workflow import runs

    handlers = HandlerConfig(live=True)
    policy = {"schema_version": 1, "default_allow": True,
              "net_policy": {"allowed_domains": ["127.0.0.1"], "timeout_ms": 5000}}
    print("ready", flush=True)
    if len(argv) > 4 and argv[3] == "resume":
        view = runs.resume(argv[4], data_dir=data_dir, handlers=handlers)
    elif len(argv) > 6 and argv[3] == "answer":      # answer RUN_ID STEP JSON
        view = runs.decide(argv[4], argv[5], "answer", answer=json.loads(argv[6]),
                           data_dir=data_dir, handlers=handlers)
    else:
        view = runs.start(runs.load_directory(wf_dir), data_dir=data_dir,
                          inputs={"base": base}, policy=policy, handlers=handlers)
    print("done", view["status"], view["run_id"], flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
