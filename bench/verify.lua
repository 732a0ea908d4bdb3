-- wrk script: POST /api/v1/api-keys/verify with the key in KEY
wrk.method = "POST"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("KEY")
