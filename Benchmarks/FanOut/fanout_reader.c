// The fan-out reader of `make bench` ("Ten thousand subscribers"): opens N change feeds on one
// table, then, WRITES times, POSTs an item to that table and records for every feed the time from
// sending the POST to reading the event that names the item. In C, with epoll, so the reader's
// own cost stays small beside the server's (a Python reader added about 100 ms per write).
//
// usage: fanout_reader PORT TABLE N WRITES   → one JSON line: {"subscribe_s", "p50_ms", "p99_ms", "max_ms", "arrivals"}
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int connect_to(int port) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) != 0) { perror("connect"); exit(2); }
    return fd;
}

static void send_all(int fd, const char *data, size_t length) {
    while (length > 0) {
        ssize_t n = write(fd, data, length);
        if (n <= 0) { perror("write"); exit(2); }
        data += n;
        length -= (size_t)n;
    }
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc != 5) { fprintf(stderr, "usage: fanout_reader PORT TABLE N WRITES\n"); return 2; }
    int port = atoi(argv[1]), feeds = atoi(argv[3]), writes = atoi(argv[4]);
    const char *table = argv[2];
    struct rlimit limit;
    getrlimit(RLIMIT_NOFILE, &limit);
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);

    char request[512];
    int length = snprintf(request, sizeof request, "GET /tables/%s/changes HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nZUMO-API-VERSION: 2.0.0\r\n\r\n", table);
    int *fds = calloc(feeds, sizeof(int));
    double started = now_ms();
    char buffer[65536];
    for (int i = 0; i < feeds; i++) {
        fds[i] = connect_to(port);
        send_all(fds[i], request, length);
        size_t seen = 0;  // until the feed says it is connected
        while (1) {
            ssize_t n = read(fds[i], buffer + seen, sizeof buffer - 1 - seen);
            if (n <= 0) { fprintf(stderr, "feed %d closed\n", i); return 2; }
            seen += n;
            buffer[seen] = 0;
            if (strstr(buffer, "connected")) break;
        }
        fcntl(fds[i], F_SETFL, O_NONBLOCK);
    }
    double subscribe_s = (now_ms() - started) / 1e3;

    int epoll = epoll_create1(0);
    for (int i = 0; i < feeds; i++) {
        struct epoll_event e = {.events = EPOLLIN, .data.u32 = (unsigned)i};
        epoll_ctl(epoll, EPOLL_CTL_ADD, fds[i], &e);
    }
    double *arrivals = calloc((size_t)feeds * writes, sizeof(double));
    size_t count = 0;
    char *tail = calloc(feeds, 64);  // each feed's last bytes, so a name split across reads is found
    char *done = calloc(feeds, 1);
    struct epoll_event events[1024];
    for (int w = 0; w < writes; w++) {
        char needle[64], body[128], post[512];
        snprintf(needle, sizeof needle, "\"id\":\"fan-%d\"", w);
        int body_length = snprintf(body, sizeof body, "{\"id\":\"fan-%d\",\"text\":\"to everyone\"}", w);
        int post_length = snprintf(post, sizeof post, "POST /tables/%s HTTP/1.1\r\nHost: 127.0.0.1\r\nZUMO-API-VERSION: 2.0.0\r\n"
                                   "Content-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", table, body_length, body);
        memset(done, 0, feeds);
        memset(tail, 0, (size_t)feeds * 64);
        int pending = feeds;
        int writer = connect_to(port);
        double sent = now_ms();
        send_all(writer, post, post_length);
        while (pending > 0) {
            int ready = epoll_wait(epoll, events, 1024, 10000);
            if (ready <= 0) { fprintf(stderr, "timed out with %d feeds waiting\n", pending); return 2; }
            for (int r = 0; r < ready; r++) {
                unsigned i = events[r].data.u32;
                ssize_t n;
                while ((n = read(fds[i], buffer + 63, sizeof buffer - 64)) > 0) {
                    memcpy(buffer, tail + (size_t)i * 64, 63);
                    buffer[63 + n] = 0;
                    if (!done[i] && memmem(buffer, 63 + n, needle, strlen(needle))) {
                        done[i] = 1;
                        pending--;
                        arrivals[count++] = now_ms() - sent;
                    }
                    memcpy(tail + (size_t)i * 64, buffer + n, 63);
                }
            }
        }
        while (read(writer, buffer, sizeof buffer) > 0) {}
        close(writer);
        usleep(500000);
    }
    qsort(arrivals, count, sizeof(double), compare);
    printf("{\"subscribe_s\":%.2f,\"p50_ms\":%.2f,\"p99_ms\":%.2f,\"max_ms\":%.2f,\"arrivals\":%zu}\n",
           subscribe_s, arrivals[count / 2], arrivals[(size_t)(count * 0.99)], arrivals[count - 1], count);
    return 0;
}
