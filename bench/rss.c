/* Runs a command and prints, on stderr after it exits, "rss_mb <peak
 * resident MiB of the command>". A process started by Python itself would
 * report Python's own peak: Linux carries the peak over an exec, and a
 * fork from this small program starts low.
 *   rss COMMAND [ARGS...]   (exit status: the command's) */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: rss COMMAND [ARGS...]\n");
    return 2;
  }
  pid_t pid = fork();
  if (pid < 0) return perror("rss: fork"), 1;
  if (pid == 0) {
    execvp(argv[1], argv + 1);
    perror("rss: exec");
    _exit(127);
  }
  int status;
  struct rusage u;
  if (wait4(pid, &status, 0, &u) < 0) return perror("rss: wait4"), 1;
  fprintf(stderr, "rss_mb %.1f\n", u.ru_maxrss / 1024.0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
