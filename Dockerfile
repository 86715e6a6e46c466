# Build: a static binary, then a distroless, non-root runtime image with the
# demo conference compiled in.
FROM golang:1.26-bookworm AS build
# FreeDict's dictionaries to English, read by the static binary in place
# (German, Dutch, Danish, Swedish questions). Apertium is a pipeline of
# dynamically linked programs, so the distroless image has none: Spanish,
# French, Portuguese, Italian and Catalan questions are read by the words
# they share with English there (a Debian host with
# scripts/translate/install.sh reads them too).
RUN apt-get update && apt-get install -y --no-install-recommends \
      dict-freedict-deu-eng dict-freedict-nld-eng dict-freedict-dan-eng dict-freedict-swe-eng \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
RUN CGO_ENABLED=0 GOOS=linux go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/erleah-agent ./cmd/erleah-agent

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/erleah-agent /usr/local/bin/erleah-agent
COPY --from=build /usr/share/dictd /usr/share/dictd
USER nonroot:nonroot
ENV LISTEN_ADDR=0.0.0.0:8080 STATE_DIR=/var/lib/erleah-agent
VOLUME /var/lib/erleah-agent
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s CMD ["/usr/local/bin/erleah-agent", "health", "--url", "http://127.0.0.1:8080/healthz"]
ENTRYPOINT ["/usr/local/bin/erleah-agent"]
CMD ["serve"]
