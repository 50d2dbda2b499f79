# rforecasts.R: R's forecast package at every rolling origin of one
# series, the anchors of rolling.py (bench/README.md, "Forecast").
#
#   Rscript rforecasts.R VALUES ORIGINS H METHOD SECONDS OUT
#
# VALUES: a file of hourly demand, one value a line; ORIGINS: comma-
# separated counts of history hours; H: hours ahead; METHOD: ets,
# auto.arima, thetaf, stlf or tbats; SECONDS: the elapsed-time limit of one
# fit (a fit that runs over or fails is written with status "fail" and the
# last day repeated in its place).  Writes OUT: origin,k,mean,lo80,hi80,
# status, seconds.  Seasons: 24 hours (ets, auto.arima and thetaf take one
# season, and ets none over 24); stlf (mstl) and tbats take 24 and 168 once
# the history holds two weeks.
suppressMessages(library(forecast))
a <- commandArgs(TRUE)
y <- scan(a[1], quiet = TRUE)
origins <- as.integer(strsplit(a[2], ",")[[1]])
H <- as.integer(a[3])
method <- a[4]
limit <- as.numeric(a[5])

seasonal <- function(x) {
    if (length(x) >= 2 * 168 + 24) msts(x, seasonal.periods = c(24, 168))
    else ts(x, frequency = 24)
}

fit <- function(x) {
    d <- ts(x, frequency = 24)
    switch(method,
        ets = forecast(ets(d), h = H, level = 80),
        auto.arima = forecast(auto.arima(d), h = H, level = 80),
        thetaf = thetaf(d, h = H, level = 80),
        stlf = stlf(seasonal(x), h = H, level = 80),
        tbats = forecast(tbats(seasonal(x), use.parallel = FALSE), h = H,
                         level = 80),
        stop("unknown method ", method))
}

rows <- list()
for (o in origins) {
    x <- y[1:o]
    t0 <- proc.time()[["elapsed"]]
    setTimeLimit(elapsed = limit, transient = TRUE)
    f <- tryCatch(fit(x), error = function(e) NULL)
    setTimeLimit(elapsed = Inf)
    s <- proc.time()[["elapsed"]] - t0
    ok <- !is.null(f) && all(is.finite(f$mean))
    if (ok) {
        m <- as.numeric(f$mean)
        lo <- as.numeric(f$lower[, 1])
        hi <- as.numeric(f$upper[, 1])
        if (!all(is.finite(lo)) || !all(is.finite(hi))) { lo <- m; hi <- m }
    } else {
        m <- x[o - 24 + ((0:(H - 1)) %% 24) + 1]
        lo <- m
        hi <- m
    }
    rows[[length(rows) + 1]] <- data.frame(origin = o, k = 0:(H - 1),
        mean = m, lo80 = lo, hi80 = hi, status = if (ok) "ok" else "fail",
        seconds = round(s, 3))
}
write.csv(do.call(rbind, rows), a[6], row.names = FALSE, quote = FALSE)
