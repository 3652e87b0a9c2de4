// LMS/HSS interop with Bouncy Castle (Debian's libbcprov-java), an
// implementation independent of lib/src/lms.c and tools/lms_sign.c.
//   verify PUB MSG SIG            exit 0 when BC accepts, 1 when it rejects
//   sign SET[,SET] PUB MSG SIG    a fresh BC key (SET: h5w1, h10w4, ...)
//                                 signs MSG: its public key and signature
import java.nio.file.Files;
import java.nio.file.Paths;
import java.security.SecureRandom;

import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.pqc.crypto.lms.HSSKeyGenerationParameters;
import org.bouncycastle.pqc.crypto.lms.HSSKeyPairGenerator;
import org.bouncycastle.pqc.crypto.lms.HSSPublicKeyParameters;
import org.bouncycastle.pqc.crypto.lms.HSSSigner;
import org.bouncycastle.pqc.crypto.lms.LMOtsParameters;
import org.bouncycastle.pqc.crypto.lms.LMSParameters;
import org.bouncycastle.pqc.crypto.lms.LMSigParameters;

public class LmsInterop {
    static LMSParameters set(String s) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("h(\\d+)w(\\d)").matcher(s);
        if (!m.matches()) throw new IllegalArgumentException("set " + s);
        LMSigParameters[] hs = {LMSigParameters.lms_sha256_n32_h5, LMSigParameters.lms_sha256_n32_h10,
                                LMSigParameters.lms_sha256_n32_h15};
        LMOtsParameters[] ws = {LMOtsParameters.sha256_n32_w1, LMOtsParameters.sha256_n32_w2, null,
                                LMOtsParameters.sha256_n32_w4, null, null, null, LMOtsParameters.sha256_n32_w8};
        return new LMSParameters(hs[Integer.parseInt(m.group(1)) / 5 - 1], ws[Integer.parseInt(m.group(2)) - 1]);
    }

    public static void main(String[] a) throws Exception {
        if (a.length == 4 && a[0].equals("verify")) {
            boolean ok;
            try {
                HSSPublicKeyParameters pub = HSSPublicKeyParameters.getInstance(Files.readAllBytes(Paths.get(a[1])));
                HSSSigner v = new HSSSigner();
                v.init(false, pub);
                ok = v.verifySignature(Files.readAllBytes(Paths.get(a[2])), Files.readAllBytes(Paths.get(a[3])));
            } catch (Exception e) {
                System.err.println("LmsInterop: rejected: " + e);
                ok = false;
            }
            System.out.println(ok ? "OK" : "REJECTED");
            System.exit(ok ? 0 : 1);
        }
        if (a.length == 5 && a[0].equals("sign")) {
            String[] sets = a[1].split(",");
            LMSParameters[] ps = new LMSParameters[sets.length];
            for (int i = 0; i < sets.length; i++) ps[i] = set(sets[i]);
            HSSKeyPairGenerator g = new HSSKeyPairGenerator();
            g.init(new HSSKeyGenerationParameters(ps, new SecureRandom()));
            AsymmetricCipherKeyPair kp = g.generateKeyPair();
            HSSSigner s = new HSSSigner();
            s.init(true, kp.getPrivate());
            byte[] sig = s.generateSignature(Files.readAllBytes(Paths.get(a[3])));
            Files.write(Paths.get(a[2]), ((HSSPublicKeyParameters) kp.getPublic()).getEncoded());
            Files.write(Paths.get(a[4]), sig);
            return;
        }
        System.err.println("usage: LmsInterop verify PUB MSG SIG | sign SET[,SET] PUB MSG SIG");
        System.exit(2);
    }
}
