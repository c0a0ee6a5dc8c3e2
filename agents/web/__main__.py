"""Play the agents in a web browser, and watch recorded games.

    python -m agents.web [--game makabana] [--against shipped] [--port 8000] [--host 127.0.0.1]

Then open http://127.0.0.1:8000/ : choose a game, its variant, the number of players, your seat and
the opponents, and play by clicking the board; the replay page opens game records (``--record`` of
``agents.tournament`` and ``agents.play``, or saved from the page at the end of a game).  The server
listens on 127.0.0.1 only, unless ``--host`` says otherwise.

    python -m agents.web --screenshots docs/images

writes one picture of the game page per game (``web_<game>.png``, as in the README) and exits; it
needs Playwright and Debian's ``chromium`` (/usr/bin/chromium).
"""
import argparse
import socket

from pacific_common.cli import integer_option, output_folder

from ..games import GAMES


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m agents.web", description="Play the agents in a web browser.",
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--game", choices=sorted(GAMES), default="makabana",
                        help="the game the home page proposes (default: %(default)s)")
    parser.add_argument("--against", default="shipped",
                        help="the opponents the home page proposes: shipped (default), random, heuristic, mcts, "
                             "mcts:<simulations>, mcts+shipped (the search guided by the shipped agent), any search "
                             "with its settings (mcts:500+shipped@pw_k=1), or the path of a checkpoint (.zip), "
                             "policy network (.npz) or RLlib checkpoint folder, which the page then offers too "
                             "(a policy network also as a search's guide: mcts+PATH)")
    parser.add_argument("--port", type=integer_option(1, 65535), default=8000, help="(default: %(default)s)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default: %(default)s, this machine only)")
    parser.add_argument("--screenshots", metavar="DIR",
                        help="write the README's pictures of the game page, web_<game>.png, into DIR and exit")
    args = parser.parse_args(argv)
    try:
        try:   # uvicorn would say only "Name or service not known", after the banner below
            socket.getaddrinfo(args.host, args.port)
        except (OSError, UnicodeError) as error:
            raise ValueError(f"--host {args.host!r} cannot be resolved to an address to listen on ({error})") from None
        if args.screenshots is not None:
            folder = output_folder("--screenshots", args.screenshots)
        else:
            from .app import create_app
            app = create_app(args.game, args.against)  # a wrong name or file is told now, not in the page
    except (ValueError, ImportError) as error:
        parser.error(str(error))

    if args.screenshots is not None:
        from .screenshots import write_screenshots
        for path in write_screenshots(folder):
            print(path)
        return

    try:
        sock = listening_socket(args.host, args.port)
    except ValueError as error:
        parser.error(str(error))
    serve(app, sock, f"Open {page_url(args.host, args.port)} in a web browser (Ctrl+C stops the server).")


def listening_socket(host, port):
    """A socket bound to ``host:port`` for the server, or ValueError saying why there is none (the port
    in use, an address of another machine): bound here, before the banner, which uvicorn printed first
    and then failed with an error of its own."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)   # as uvicorn chooses
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as error:
        sock.close()
        raise ValueError(f"cannot listen on {host} port {port} ({error.strerror or error}); choose another "
                         f"--port, or a --host of this machine") from None
    return sock


def serve(app, sock, banner):
    """Say ``banner``, then serve ``app`` on ``sock`` until Ctrl+C.  uvicorn's warnings reach stderr
    through Python's last-resort handler: its own logging configuration (``log_config``) would first
    close every handler the process has, and one that closes its stream (absl's, which Ray and
    TensorBoard bring) would close the stream it writes to, sys.stderr perhaps."""
    import uvicorn

    print(banner)
    uvicorn.Server(uvicorn.Config(app, log_level="warning", log_config=None)).run(sockets=[sock])


def page_url(host, port):
    """The home page's address; an IPv6 address goes in brackets (RFC 3986)."""
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


if __name__ == "__main__":
    main()
