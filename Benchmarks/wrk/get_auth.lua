-- The fixed GET with an access token (BENCH_TOKEN) in X-ZUMO-AUTH.
wrk.headers["ZUMO-API-VERSION"] = "2.0.0"
wrk.headers["X-ZUMO-AUTH"] = os.getenv("BENCH_TOKEN")
dofile(os.getenv("WRK_SCRIPTS") .. "/report.lua")
