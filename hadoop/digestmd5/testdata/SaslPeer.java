// SaslPeer drives the JDK's own DIGEST-MD5 (com.sun.security.sasl.digest)
// for the interoperability tests of package digestmd5, set up as Hadoop's
// SaslRpcServer and SaslRpcClient set it up for TOKEN authentication:
// protocol "", server name "default", javax.security.sasl.qop from
// hadoop.rpc.protection, server authentication on.
//
// It reads one command per line on stdin and answers with one line on
// stdout; byte strings travel in base64 ("-" is empty).
//
//   server QOPS USER PASSWORD      a new SaslServer     -> challenge B64
//   response B64                   evaluateResponse     -> rspauth B64 QOP
//   client QOPS USER PASSWORD [CIPHER]  a new SaslClient -> ok
//   challenge B64                  evaluateChallenge    -> response B64
//   rspauth B64                    evaluateChallenge    -> complete QOP
//   wrap B64 / unwrap B64          the last peer's layer -> wrapped/unwrapped B64
//   pair SQOPS CQOPS CIPHER USER PASSWORD MSGS
//       a whole exchange between a Java client and a Java server, printed as
//       one JSON object: the three messages, then each of the comma-separated
//       base64 MSGS wrapped by the client and by the server.
//
// Errors answer "error MESSAGE". USER and PASSWORD are base64 of UTF-8.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.CallbackHandler;
import javax.security.auth.callback.NameCallback;
import javax.security.auth.callback.PasswordCallback;
import javax.security.sasl.AuthorizeCallback;
import javax.security.sasl.RealmCallback;
import javax.security.sasl.RealmChoiceCallback;
import javax.security.sasl.Sasl;
import javax.security.sasl.SaslClient;
import javax.security.sasl.SaslServer;

public class SaslPeer {
    static SaslServer server;
    static SaslClient client;
    static boolean lastIsServer;

    static byte[] dec(String s) {
        return s.equals("-") ? new byte[0] : Base64.getDecoder().decode(s);
    }

    static String enc(byte[] b) {
        return b == null || b.length == 0 ? "-" : Base64.getEncoder().encodeToString(b);
    }

    static String text(String b64) {
        return new String(dec(b64), StandardCharsets.UTF_8);
    }

    static Map<String, Object> props(String qops, String cipher) {
        Map<String, Object> p = new HashMap<>();
        p.put(Sasl.QOP, qops);
        p.put(Sasl.SERVER_AUTH, "true");
        if (cipher != null) {
            p.put("com.sun.security.sasl.digest.cipher", cipher);
        }
        return p;
    }

    static SaslServer newServer(String qops, String user, String password) throws Exception {
        CallbackHandler h = (Callback[] cbs) -> {
            String name = null;
            for (Callback cb : cbs) {
                if (cb instanceof NameCallback) {
                    name = ((NameCallback) cb).getDefaultName();
                }
            }
            for (Callback cb : cbs) {
                if (cb instanceof PasswordCallback && user.equals(name)) {
                    ((PasswordCallback) cb).setPassword(password.toCharArray());
                } else if (cb instanceof AuthorizeCallback) {
                    AuthorizeCallback ac = (AuthorizeCallback) cb;
                    ac.setAuthorized(ac.getAuthenticationID().equals(ac.getAuthorizationID()));
                    if (ac.isAuthorized()) {
                        ac.setAuthorizedID(ac.getAuthorizationID());
                    }
                }
            }
        };
        return Sasl.createSaslServer("DIGEST-MD5", "", "default", props(qops, null), h);
    }

    static SaslClient newClient(String qops, String user, String password, String cipher) throws Exception {
        CallbackHandler h = (Callback[] cbs) -> {
            for (Callback cb : cbs) {
                if (cb instanceof NameCallback) {
                    ((NameCallback) cb).setName(user);
                } else if (cb instanceof PasswordCallback) {
                    ((PasswordCallback) cb).setPassword(password.toCharArray());
                } else if (cb instanceof RealmCallback) {
                    RealmCallback rc = (RealmCallback) cb;
                    rc.setText(rc.getDefaultText());
                } else if (!(cb instanceof RealmChoiceCallback)) {
                    throw new javax.security.auth.callback.UnsupportedCallbackException(cb);
                }
            }
        };
        return Sasl.createSaslClient(new String[] {"DIGEST-MD5"}, null, "", "default", props(qops, cipher), h);
    }

    static String json(String k, String v) {
        return "\"" + k + "\":\"" + v + "\"";
    }

    static String pair(String[] a) throws Exception {
        SaslServer s = newServer(a[1], text(a[4]), text(a[5]));
        SaslClient c = newClient(a[2], text(a[4]), text(a[5]), a[3].equals("-") ? null : a[3]);
        byte[] challenge = s.evaluateResponse(new byte[0]);
        byte[] response = c.evaluateChallenge(challenge);
        byte[] rspauth = s.evaluateResponse(response);
        c.evaluateChallenge(rspauth);
        if (!c.isComplete() || !s.isComplete()) {
            throw new IllegalStateException("exchange did not complete");
        }
        StringBuilder out = new StringBuilder("{");
        out.append(json("challenge", enc(challenge))).append(',');
        out.append(json("response", enc(response))).append(',');
        out.append(json("rspauth", enc(rspauth))).append(',');
        out.append(json("qop", (String) s.getNegotiatedProperty(Sasl.QOP))).append(',');
        StringBuilder cw = new StringBuilder(), sw = new StringBuilder();
        boolean layer = !"auth".equals(s.getNegotiatedProperty(Sasl.QOP));
        for (String m : layer ? a[6].split(",") : new String[0]) {
            byte[] msg = dec(m);
            if (cw.length() > 0) {
                cw.append(',');
                sw.append(',');
            }
            cw.append('"').append(enc(c.wrap(msg, 0, msg.length))).append('"');
            sw.append('"').append(enc(s.wrap(msg, 0, msg.length))).append('"');
        }
        out.append("\"client_wraps\":[").append(cw).append("],");
        out.append("\"server_wraps\":[").append(sw).append("]}");
        return out.toString();
    }

    static String handle(String[] a) throws Exception {
        switch (a[0]) {
            case "server":
                server = newServer(a[1], text(a[2]), text(a[3]));
                lastIsServer = true;
                return "challenge " + enc(server.evaluateResponse(new byte[0]));
            case "response": {
                byte[] rsp = server.evaluateResponse(dec(a[1]));
                return "rspauth " + enc(rsp) + " " + server.getNegotiatedProperty(Sasl.QOP);
            }
            case "client":
                client = newClient(a[1], text(a[2]), text(a[3]), a.length > 4 ? a[4] : null);
                lastIsServer = false;
                return "ok";
            case "challenge":
                return "response " + enc(client.evaluateChallenge(dec(a[1])));
            case "rspauth":
                client.evaluateChallenge(dec(a[1]));
                if (!client.isComplete()) {
                    return "error client not complete";
                }
                return "complete " + client.getNegotiatedProperty(Sasl.QOP);
            case "wrap": {
                byte[] m = dec(a[1]);
                return "wrapped " + enc(lastIsServer ? server.wrap(m, 0, m.length) : client.wrap(m, 0, m.length));
            }
            case "unwrap": {
                byte[] m = dec(a[1]);
                return "unwrapped " + enc(lastIsServer ? server.unwrap(m, 0, m.length) : client.unwrap(m, 0, m.length));
            }
            case "pair":
                return pair(a);
            default:
                return "error unknown command " + a[0];
        }
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            String answer;
            try {
                answer = handle(line.trim().split(" "));
            } catch (Exception e) {
                answer = "error " + String.valueOf(e).replace('\n', ' ');
            }
            System.out.println(answer);
            System.out.flush();
        }
    }
}
