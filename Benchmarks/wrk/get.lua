-- A fixed GET with the protocol header.
wrk.headers["ZUMO-API-VERSION"] = "2.0.0"
dofile(os.getenv("WRK_SCRIPTS") .. "/report.lua")
