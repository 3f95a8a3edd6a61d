# The example server as a container: a static binary on an empty base image,
# running as an unprivileged user, with the bolt file and the users file on a
# volume.
#
#   docker build -t eventcal .
#   docker run -p 8080:8080 -v eventcal-data:/data eventcal      # prints the admin password once
#   docker run --rm -i -v eventcal-data:/data eventcal useradd -role editor ann   # password on stdin
#
# Every flag can also be set as EVENTCAL_<FLAG> (see docs/operations.md).

FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# CGO off: a static binary that needs no libc. timetzdata embeds the zone
# database, which the empty image lacks, for -timezone.
RUN CGO_ENABLED=0 go build -trimpath -tags timetzdata -ldflags="-s -w" -o /out/eventcal ./examples/server \
 && mkdir -p /out/data

FROM scratch
# CA roots for rediss:// (TLS) connections to Redis.
COPY --from=build /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
COPY --from=build /out/eventcal /eventcal
COPY --from=build --chown=65532:65532 /out/data /data
USER 65532:65532
ENV EVENTCAL_ADDR=0.0.0.0:8080 \
    EVENTCAL_DB=/data/eventcal.db
VOLUME /data
EXPOSE 8080
ENTRYPOINT ["/eventcal"]
