# Build: a static binary, then a distroless, non-root runtime image with the
# demo conference compiled in.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
RUN CGO_ENABLED=0 GOOS=linux go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/erleah-agent ./cmd/erleah-agent

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/erleah-agent /usr/local/bin/erleah-agent
USER nonroot:nonroot
ENV LISTEN_ADDR=0.0.0.0:8080 STATE_DIR=/var/lib/erleah-agent
VOLUME /var/lib/erleah-agent
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s CMD ["/usr/local/bin/erleah-agent", "health", "--url", "http://127.0.0.1:8080/healthz"]
ENTRYPOINT ["/usr/local/bin/erleah-agent"]
CMD ["serve"]
